# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The tool dispatcher: a call's arguments checked, its handler run, its result shaped.

Arguments are checked against the manifest's JSON Schemas (the published contract) before a
handler sees them; results are checked against the output schema before they leave.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeAlias, TypeGuard, TypeVar

import anyio
from mcp.server.context import CallNext, ServerRequestContext
from mcp.server.context import HandlerResult as WireResult
from mcp.server.request_state import RequestStateSecurity
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    AudioContent,
    CallToolRequestParams,
    CallToolResult,
    ContentBlock,
    ElicitResult,
    EmbeddedResource,
    ImageContent,
    InputRequiredResult,
    ListToolsResult,
    PaginatedRequestParams,
    ResourceLink,
    TextContent,
)
from pydantic import BaseModel
from pydantic import ValidationError as ModelValidationError

from ..core import guards
from ..core.defaults import DEFAULT_MAX_RESULT_BYTES, DEFAULT_MAX_RESULT_CHARS, DEFAULT_TIMEOUT
from ..core.errors import ErrorPolicy, ToolError, shortened
from ..core.limits import LoopLimiter, PoolSaturated, Raised, WorkerPool
from ..core.result_size import bounded
from ..core.results import NotJson, error_result, finished, plain_json
from ..core.task_support import task_support
from ..core.tool_filter import REQUEST_FILTER, ToolFilter, from_request, narrowed
from ..core.tool_table import ToolCode, as_plain_json, to_json
from ..validation.schema_check import VERDICT_THREADS, SchemaCheck, off_loop_if
from .context import Context, InputRequired, LogLevels
from .middleware import AroundCall, CallGuards
from .request_state import ephemeral_security

logger = logging.getLogger(__name__)

ModelT = TypeVar("ModelT", bound=BaseModel)
HandlerResult: TypeAlias = (
    str | Mapping[str, Any] | BaseModel | Sequence[ContentBlock] | CallToolResult | None
)
# The arguments model, then the `Context` when the handler declares one.
Handler: TypeAlias = Callable[..., HandlerResult | Awaitable[HandlerResult]]

NOT_IMPLEMENTED = "is not implemented yet"
# An invalid-arguments reply lists at most this many problems, each cut to this length.
MAX_PROBLEMS = 20
PROBLEM_LIMIT = 300
_CONTENT_TYPES = (TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource)
# Verdict threads the calls of one tool may hold at once (the others wait their turn without
# a thread): one matching and one next, since a schema's matches run one at a time. A flood
# of runaway matches on a tool, or on three, leaves threads to every other tool.
TOOL_VERDICT_THREADS = max(1, VERDICT_THREADS // 4)


class ToolEntry(Protocol):
    """A row of the tool table: what tools/list publishes and the call policy, known at once,
    and the code, which `load` may import only when the tool is first called."""

    @property
    def definition(self) -> Mapping[str, Any]:
        """The tool's definition, as tools/list publishes it."""

    @property
    def handler_path(self) -> str:
        """Where the user's handler is written, named in a not-implemented or import error."""

    @property
    def timeout(self) -> float | None:
        """The tool's own limit in seconds; None: the server's default timeout."""

    @property
    def confirm(self) -> bool:
        """Whether the user is asked, through elicitation, before each call."""

    @property
    def scopes(self) -> tuple[str, ...]:
        """The OAuth scopes a call needs (HTTP, OAuth mode)."""

    @property
    def renamed_from(self) -> tuple[str, ...]:
        """The tool's former names, still answered (unlisted) for clients built before."""

    @property
    def tags(self) -> tuple[str, ...]:
        """The toolsets the tool belongs to (`--toolsets`)."""

    @property
    def max_result_chars(self) -> int | None:
        """The tool's own bound on its result's text; None: the server's `--max-result-chars`."""

    @property
    def name(self) -> str:
        """The tool's name, as its definition gives it."""

    def load(self) -> ToolCode:
        """The tool's models and handler, importing the handler's module if need be (it
        raises what that import raises)."""


@dataclass(frozen=True)
class ToolSpec(Generic[ModelT]):
    """One tool: its published definition, its models, and the user's handler."""

    definition: Mapping[str, Any]
    input_model: type[ModelT]
    handler: Handler
    handler_path: str
    output_model: type[BaseModel] | None = None
    timeout: float | None = None
    confirm: bool = False  # ask the user through elicitation before each call
    scopes: tuple[str, ...] = ()  # OAuth scopes a call needs (HTTP, OAuth mode)
    renamed_from: tuple[str, ...] = ()  # former names, still answered (unlisted)
    rate_limit: tuple[int, float] | None = None  # (calls, per seconds), per client
    tags: tuple[str, ...] = ()  # toolsets it belongs to (`--toolsets`)
    max_result_chars: int | None = None  # None: the server's `--max-result-chars`

    @property
    def name(self) -> str:
        """The tool's name, as its definition gives it."""
        return str(self.definition["name"])

    def load(self) -> ToolCode:
        """The tool's models and handler, all in hand already (nothing to import)."""
        return ToolCode(self.input_model, self.handler, self.output_model)


class HandlerTimedOut(Exception):
    """The handler ran past the tool's `timeout` (not a TimeoutError the handler raised)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


@dataclass
class CallPolicy:
    """Server-wide limits and error wording, set from the command line at start-up."""

    errors: ErrorPolicy = field(default_factory=ErrorPolicy)
    max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES
    # For tools without their own `timeout`; 0 or None: no limit.
    default_timeout: float | None = DEFAULT_TIMEOUT
    workers: WorkerPool = field(default_factory=WorkerPool)
    env_names: tuple[str, ...] = ()  # the manifest's `env`, for `Context.env`
    secret_headers: tuple[str, ...] = ()  # request headers whose values stay out of logs
    state: RequestStateSecurity = field(default_factory=ephemeral_security)
    # The tools served (`--toolsets`, `--tools`, `--read-only`); None: all of them.
    tool_filter: ToolFilter | None = None
    max_result_chars: int = DEFAULT_MAX_RESULT_CHARS  # 0: no limit

    def timeout_of(self, spec: ToolEntry) -> float | None:
        """The seconds a call of `spec` may run: its own timeout, else the server's default
        (0 or None: no limit)."""
        return spec.timeout or self.default_timeout


def _is_content_list(outcome: object) -> TypeGuard[Sequence[ContentBlock]]:
    return (
        isinstance(outcome, (list, tuple))
        and bool(outcome)
        and all(isinstance(item, _CONTENT_TYPES) for item in outcome)
    )


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(item) for item in value]
    return value


class CompiledTool:
    """A ToolSpec with its schemas compiled once, on the tool's first call: a server with
    many tools starts without compiling the validators of tools it is never asked for."""

    def __init__(self, spec: ToolEntry) -> None:
        self.spec = spec
        self._code: ToolCode | None = None
        self._wants_context = False
        self.verdict_threads = LoopLimiter(TOOL_VERDICT_THREADS)

    def code(self) -> ToolCode:
        """The tool's models and handler, imported on the first call that needs them.

        A failed import is not remembered: the next call tries again (the module may have
        failed on something transient, and Python leaves no half-imported module behind).
        """
        if self._code is None:
            code = self.spec.load()
            self._wants_context = wants_context(code.handler)
            self._code = code
        return self._code

    @property
    def wants_context(self) -> bool:
        """Whether the handler takes a `Context`; False for a tool whose code does not load
        (its calls end in the import's tool error before any handler would run)."""
        try:
            self.code()
        except (Exception, SystemExit):  # a handler module's import: user code
            return False
        return self._wants_context

    # Compiled on a tool's first call: a server with many tools starts faster.
    @functools.cached_property
    def input_check(self) -> SchemaCheck:
        """The compiled check of the tool's input schema, which a call's arguments must pass."""
        return SchemaCheck(self.spec.definition["inputSchema"])

    @functools.cached_property
    def output_check(self) -> SchemaCheck | None:
        """The compiled check of the tool's output schema; None when it declares none."""
        output_schema = self.spec.definition.get("outputSchema")
        return None if output_schema is None else SchemaCheck(output_schema)

    @property
    def is_async(self) -> bool:
        """Whether the handler is a coroutine function (run on the event loop, not a worker
        thread); it imports the handler's module if need be."""
        return inspect.iscoroutinefunction(self.code().handler)

    async def invoke(
        self,
        model: BaseModel,
        context: Context,
        timeout: float | None,
        pool: WorkerPool,
        finish: Callable[[Any], CallToolResult],
    ) -> CallToolResult:
        """Run the handler (a sync one on the worker pool) and `finish` what it returned into
        the result to send, within `timeout` seconds."""
        try:
            if not timeout:
                return await self._run(model, context, pool, finish)
            if self.is_async:
                return await self._run_apart(self._run(model, context, pool, finish), timeout)
            with anyio.move_on_after(timeout):
                return await self._run(model, context, pool, finish)
        except BaseException:
            context.is_cancelled = True  # for a sync handler's thread, which runs on
            raise
        context.is_cancelled = True
        raise HandlerTimedOut(timeout)

    @staticmethod
    async def _run_apart(
        run: Coroutine[Any, Any, CallToolResult], timeout: float
    ) -> CallToolResult:
        """`run` in a task of its own, waited for `timeout` seconds at most, then cancelled:
        an async handler that catches its cancellation and goes on is left running, and its
        call is answered at its timeout all the same."""
        task = asyncio.ensure_future(_contained(run))
        try:
            await asyncio.wait((task,), timeout=timeout)
        finally:
            if not task.done():  # the timeout, or the caller's own cancellation
                task.cancel()
                task.add_done_callback(_discard_outcome)
        if not task.done():
            raise HandlerTimedOut(timeout)
        return task.result()

    async def _run(
        self,
        model: BaseModel,
        context: Context,
        pool: WorkerPool,
        finish: Callable[[Any], CallToolResult],
    ) -> CallToolResult:
        handler: Callable[..., Any] = self.code().handler
        args: tuple[Any, ...] = (model, context) if self.wants_context else (model,)
        guards.install()
        try:
            with guards.handler_running():
                if self.is_async:
                    outcome = await handler(*args)
                else:
                    # A worker thread keeps a slow sync handler from blocking other requests.
                    outcome = await pool.run(_finished_in_worker, handler, args, finish)
                    if isinstance(outcome, _Finished):
                        return outcome.result
                if inspect.isawaitable(outcome):
                    outcome = await outcome
                return finish(outcome)
        finally:
            guards.end_if_forked_child()  # raised or returned, never answered from a child

    def to_result(self, outcome: HandlerResult) -> CallToolResult:
        """Turn what a handler returned into a tool result, checking the output schema."""
        if isinstance(outcome, CallToolResult):
            if self.output_check is not None and not outcome.is_error:
                return self._structured(outcome.structured_content, outcome.content)
            return outcome
        if _is_content_list(outcome):
            return self._content_result(outcome)
        data = plain_json(self._plain_data(outcome))  # or NotJson
        if self.output_check is not None:
            return self._structured(data, None)
        if data is None:
            return CallToolResult(content=[])
        text = data if isinstance(data, str) else to_json(data)
        return CallToolResult(content=[TextContent(type="text", text=text)])

    def _content_result(self, blocks: Sequence[ContentBlock]) -> CallToolResult:
        if self.output_check is not None:
            return error_result(
                f"Tool {self.spec.name!r} declares an output schema but returned content "
                "blocks; return the structured result (a model or dict) instead"
            )
        return CallToolResult(content=list(blocks))

    @staticmethod
    def _plain_data(outcome: object) -> object:
        if isinstance(outcome, BaseModel):
            # Unset fields stay out: the models type absent optional fields as `None`.
            return outcome.model_dump(mode="json", by_alias=True, exclude_unset=True)
        if isinstance(outcome, Mapping):
            return dict(outcome)
        return outcome

    def _structured(self, data: object, content: list[ContentBlock] | None) -> CallToolResult:
        assert self.output_check is not None
        if not isinstance(data, dict):
            return error_result(
                f"Tool {self.spec.name!r} must return an object matching its output schema, "
                f"got {type(data).__name__}"
            )
        problems = self.output_check.problems(data)
        if problems:
            # A `None` set on an optional field means "absent" to the models.
            pruned = _without_nulls(data)
            if not self.output_check.problems(pruned):
                data, problems = pruned, []
        if problems:
            return error_result(
                f"Tool {self.spec.name!r} returned a result that does not match its output "
                "schema:\n" + "\n".join(f"- {p}" for p in problems)
            )
        blocks = content or [TextContent(type="text", text=to_json(data))]
        return CallToolResult(content=blocks, structured_content=data)


async def _contained(run: Coroutine[Any, Any, CallToolResult]) -> CallToolResult:
    """`run`, with `SystemExit` and `KeyboardInterrupt` wrapped in `Raised`: raised as they
    are in a task, asyncio would hand them on to the event loop, ending the server."""
    try:
        return await run
    except (SystemExit, KeyboardInterrupt) as exc:
        raise Raised(exc) from None


def _discard_outcome(task: asyncio.Future[Any]) -> None:
    """Read what a task answered after its timeout returned or raised, so that asyncio does
    not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


@dataclass(frozen=True)
class _Finished:
    """A sync handler's result, made ready to send on its worker thread."""

    result: CallToolResult


def _finished_in_worker(
    handler: Callable[..., Any], args: tuple[Any, ...], finish: Callable[[Any], CallToolResult]
) -> Any:
    """Call a sync handler and finish its result on the same worker thread: converting a
    result (a huge one, a slow generator) never blocks the event loop, and counts in the
    call's timeout. An awaitable it returns is left to the event loop."""
    outcome = handler(*args)
    return outcome if inspect.isawaitable(outcome) else _Finished(finish(outcome))


class Dispatcher:
    """Serves tools/list and tools/call for a fixed table of tools."""

    def __init__(
        self,
        tools: Sequence[ToolEntry],
        policy: CallPolicy | None = None,
        *,
        around_call: AroundCall | None = None,
    ) -> None:
        self.policy = policy or CallPolicy()
        # Rate limits and the project's `around_call` (None: neither, nothing to pay for).
        self.guards = CallGuards.of(tools, around_call)
        self.log_levels = LogLevels()
        self._tools = {spec.name: CompiledTool(spec) for spec in tools}
        # A renamed tool answers its former names too, unlisted, so clients built before the
        # rename keep working (`renamed_from`); each former name in use is logged once.
        self._former = {
            former: spec.name
            for spec in tools
            for former in spec.renamed_from
            if former not in self._tools
        }
        self._former_seen: set[str] = set()
        # tools/list answers with these very objects. A table's definitions are plain JSON
        # already (dict literals), so they are published as they are: a copy of each would
        # hold a second tool table in memory for the server's life (MBs at 200 tools).
        self._published: list[Any] = [as_plain_json(spec.definition) for spec in tools]
        self._rows = tuple(tools)
        # Each filter's share of `_published` (bounded: request headers can vary at will).
        self._published_under: dict[tuple[ToolFilter | None, ToolFilter | None], list[Any]] = {}

    def _find(self, name: str) -> CompiledTool | None:
        """The tool called `name`, or the one that was called so before its rename."""
        tool = self._tools.get(name)
        if tool is None and name in self._former:
            current = self._former[name]
            if name not in self._former_seen:
                self._former_seen.add(name)
                logger.warning(
                    "deprecated tool name %r called: it is %r now (answered under both; "
                    "update the client)",
                    name,
                    current,
                )
            tool = self._tools[current]
        return tool if tool is None or self._shown(tool.spec) else None

    def _shown(self, spec: ToolEntry) -> bool:
        """Whether the server's filter and the request's narrowing both admit the tool."""
        server, request = self.policy.tool_filter, REQUEST_FILTER.get()
        return (server is None or server.admits(spec)) and (request is None or request.admits(spec))

    def input_schema(self, name: str) -> Mapping[str, Any] | None:
        """The input schema of the tool called `name` (or so before its rename); None for a
        tool unknown or not shown to this request."""
        tool = self._find(name)
        return None if tool is None else tool.spec.definition["inputSchema"]

    def context_free(self, name: str) -> bool:
        """True for a known tool whose calls need nothing of the request but its arguments:
        no `Context` for the handler, no confirmation to ask for."""
        tool = self._find(name)
        return (
            tool is not None
            and not tool.wants_context
            and not tool.spec.confirm
            and task_support(tool.spec.definition) == "forbidden"  # tasks: see `task_calls`
        )

    @property
    def tool_scopes(self) -> dict[str, tuple[str, ...]]:
        """The OAuth scopes each tool the server shows needs, for the HTTP gate (a hidden
        tool is refused as unknown, whatever the token's scopes)."""
        return {n: t.spec.scopes for n, t in self._tools.items() if self._shown(t.spec)}

    @property
    def published(self) -> list[Any]:
        """Each tool's definition exactly as tools/list publishes it: those the server's
        filter and the request's narrowing show (see `core.tool_filter`)."""
        key = (self.policy.tool_filter, REQUEST_FILTER.get())
        if key == (None, None):
            return self._published
        shown = self._published_under.get(key)
        if shown is None:
            if len(self._published_under) >= 64:
                self._published_under.clear()
            pairs = zip(self._rows, self._published, strict=True)
            shown = [definition for spec, definition in pairs if self._shown(spec)]
            self._published_under[key] = shown
        return shown

    async def list_tools(
        self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        """The envelope of the tools/list answer; `publish_definitions` puts the tools in."""
        return ListToolsResult(tools=[])

    async def publish_definitions(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> WireResult:
        """Server middleware: tools/list carries the manifest's definitions verbatim.

        The SDK shapes a handler's result through its own models, which drop what MCP does
        not define (e.g. an annotation `category`); the wire answer is changed after that.
        """
        # Also where a request's tool narrowing is read: from its HTTP headers, for
        # everything the SDK does for it (none on stdio).
        with narrowed(from_request(ctx.request)):
            result = await call_next(ctx)
            if ctx.method == "tools/list" and isinstance(result, dict):
                return {**result, "tools": self.published}
        return result

    async def call_tool(
        self, ctx: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult | InputRequiredResult:
        """The SDK's tools/call handler: the request's `Context` built, then `call`."""
        context = Context(
            ctx,
            env_names=self.policy.env_names,
            log_levels=self.log_levels,
            secret_headers=self.policy.secret_headers,
        )
        return await self.call(params.name, params.arguments or {}, context)

    def _tool(self, name: str) -> CompiledTool:
        tool = self._find(name)
        if tool is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name}")
        return tool

    def admit(self, name: str, arguments: Mapping[str, Any]) -> BaseModel | CallToolResult:
        """The handler's model of `arguments` if the tool's input schema accepts them, else
        the tool error that refuses them (the verdict alone: no handler runs)."""
        tool = self._tool(name)
        problems = tool.input_check.problems(arguments)
        if problems:
            # A value is quoted in part only: the reason is what helps, not 10 MB echoed back.
            lines = "\n".join(f"- {shortened(p, PROBLEM_LIMIT)}" for p in problems[:MAX_PROBLEMS])
            more = len(problems) - MAX_PROBLEMS
            lines += f"\n- … and {more} more" if more > 0 else ""
            return error_result(f"Invalid arguments for tool {name!r}:\n{lines}")
        try:
            code = tool.code()
        except (Exception, SystemExit) as exc:  # a handler module's import: user code
            return error_result(self._unloadable(tool, exc))
        model: BaseModel = typed_arguments(code.input_model, arguments)
        return model

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any],
        context: Context | None = None,
        *,
        http_request: Any = None,
        guarded: bool = False,
    ) -> CallToolResult | InputRequiredResult:
        """Validate, build the typed model, run the handler, check its result; first the
        guards (rate limit, `around_call`), unless they are `guarded` already.

        `http_request`: the HTTP request of a call a fast path answers (with no `context`).
        Nothing the handler raises escapes, not even `SystemExit` or `GeneratorExit`: one bad
        call must not end the server for every other client.
        """
        if self.guards is not None and not guarded:
            return await self.guards.call(self, name, arguments, context, http_request)
        tool = self._tool(name)
        model = await self._admitted(tool, arguments)
        if isinstance(model, CallToolResult):
            return model
        context = context or Context(None, env_names=self.policy.env_names)
        try:
            if tool.spec.confirm:
                await _confirm(tool.spec, context)
            policy = self.policy
            timeout = policy.timeout_of(tool.spec)
            sendable = functools.partial(self._sendable, tool)
            return await tool.invoke(model, context, timeout, policy.workers, sendable)
        except InputRequired as asked:
            return asked.result
        except BaseException as exc:  # every kind, see the docstring
            if _is_server_cancellation(exc):
                raise
            if isinstance(exc, MCPError) and context.task_begin is not None:
                raise  # a protocol error fails the task (`task_calls`), not a tool error
            return self._finished(self._failure(tool, exc))

    def _sendable(self, tool: CompiledTool, outcome: Any) -> CallToolResult:
        """What a handler returned, as the result to send (checked, redacted, bounded)."""
        limit = tool.spec.max_result_chars
        own = limit is not None
        limit = self.policy.max_result_chars if limit is None else limit
        result = bounded(tool.to_result(outcome), limit, tool=tool.spec.name, own_limit=own)
        return self._finished(result)

    def _finished(self, result: CallToolResult) -> CallToolResult:
        return finished(result, self.policy.errors.redactor, self.policy.max_result_bytes)

    async def _admitted(
        self, tool: CompiledTool, arguments: Mapping[str, Any]
    ) -> BaseModel | CallToolResult:
        """`admit`, off the event loop when the verdict may wait for a regex child."""
        name = tool.spec.name
        if not tool.input_check.isolated:
            return self.admit(name, arguments)
        from ..validation.bounded_regex import waiting_since  # noqa: PLC0415  (loaded with the schema)

        with waiting_since(time.monotonic()):
            async with tool.verdict_threads.here():
                return await off_loop_if(True, self.admit, name, arguments)

    def _failure(self, tool: CompiledTool, exc: BaseException) -> CallToolResult:
        name = tool.spec.name
        if isinstance(exc, Raised):
            exc = exc.original
        if isinstance(exc, PoolSaturated):
            return error_result(f"Tool {name!r} was not run: {exc}")
        if isinstance(exc, ToolError):
            return error_result(self.policy.errors.tool_error(exc))
        if isinstance(exc, NotImplementedError):
            return error_result(
                f"Tool {name!r} {NOT_IMPLEMENTED}: write its handler in {tool.spec.handler_path}"
            )
        if isinstance(exc, NotJson):
            return error_result(f"Tool {name!r} returned a value with no JSON form: {exc}")
        if isinstance(exc, HandlerTimedOut):
            return error_result(self._timed_out(tool, exc.seconds))
        return error_result(self.policy.errors.unexpected(name, exc))

    def _unloadable(self, tool: CompiledTool, exc: BaseException) -> str:
        failure = self.policy.errors.unexpected(tool.spec.name, exc)
        return f"{failure}, importing its handler {tool.spec.handler_path}"

    def _timed_out(self, tool: CompiledTool, seconds: float) -> str:
        message = f"Tool {tool.spec.name!r} timed out after {seconds:g} s"
        if tool.is_async:
            return message
        logger.warning("%s; its sync handler still runs in a worker thread", message)
        return f"{message} (its work may still complete on the server)"


async def _confirm(spec: ToolEntry, context: Context) -> None:
    """Ask the user before a tool marked `confirm: true` runs; raise unless they accept."""
    question = f"Run the tool {spec.name!r}?"
    try:
        # Only a confirmation the server asked for, for these very arguments, counts.
        answer: ElicitResult = await context.elicit(
            question, {"type": "object", "properties": {}}, key="confirm_call", only_if_asked=True
        )
    except InputRequired:
        raise
    except Exception as exc:
        raise ToolError(
            f"Tool {spec.name!r} needs the user's confirmation, and the client could not ask "
            f"for it ({type(exc).__name__})"
        ) from None
    if answer.action != "accept":
        raise ToolError(
            f"Tool {spec.name!r} was not run: the user did not confirm ({answer.action})"
        )


def wants_context(handler: Callable[..., Any]) -> bool:
    """True when the handler declares a second parameter: the context goes there."""
    try:
        parameters = list(inspect.signature(handler).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 and (
        positional[1].default is inspect.Parameter.empty
        or "Context" in str(positional[1].annotation)
    )


def _is_server_cancellation(exc: BaseException) -> bool:
    """A cancellation the server asked for (shutdown, client cancel), not one a handler raised."""
    if not isinstance(exc, asyncio.CancelledError):
        return False
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def typed_arguments(model: type[ModelT], arguments: Mapping[str, Any]) -> ModelT:
    """The handler's model of arguments the schema accepted.

    The schema is the contract: where the model is stricter (a `format` the schema only
    annotates, a regex read by another engine), the values are kept as they came rather
    than refused.
    """
    try:
        return model.model_validate(arguments)
    except ModelValidationError as exc:
        logger.warning("arguments kept unconverted: the model is stricter than the schema: %s", exc)
        return model.model_construct(**arguments)
