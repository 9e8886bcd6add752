# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Tool calls as tasks, on the wire of both protocol eras.

A tool whose manifest entry says `execution: {taskSupport: optional | required}`:

- 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, SEP-2663): when the request
  declares the extension in its client capabilities, the call answers inline if the handler
  finishes, or asks a question, within `INLINE_GRACE` seconds and has not called
  `ctx.begin_task()`; otherwise the answer is a task (`resultType: "task"`) and the handler
  goes on in the background. `tasks/get` tells its status and, once settled, its result or
  error; questions it asks meanwhile are `inputRequests` there, answered with `tasks/update`;
  `tasks/cancel` stops it. Without the extension an `optional` tool runs as a plain call and
  a `required` one is refused with -32021 (missing required client capability).
- 2025-11-25 (tasks in the core protocol): a `tools/call` carrying `task: {ttl}` is answered
  with the task at once (`CreateTaskResult`); `tasks/get`, `tasks/result` (waits for the
  result), `tasks/list` and `tasks/cancel` serve it. A `required` tool called without `task`
  is -32601, as that revision says.

The handler is the tool's usual one: `dispatch.tasks` keeps the task while it runs, with no
tie to the request that started it, so it survives the client's disconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Mapping
from typing import Any

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.context import CallNext, ServerRequestContext
from mcp.server.context import HandlerResult as WireResult
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import MCP_NAME_HEADER, decode_header_value
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    CallToolRequestParams,
    CallToolResult,
    InputRequiredResult,
    RequestParams,
)
from pydantic import Field

from ..core.task_support import TASKS_EXTENSION, task_support
from . import caller
from .context import Context, LogLevels
from .tasks import Task, TaskStore

logger = logging.getLogger(__name__)

MODERN_ERA = "2026-07-28"
MISSING_REQUIRED_CAPABILITY = -32021
HEADER_MISMATCH = -32020
RELATED_TASK = "io.modelcontextprotocol/related-task"
# Seconds a task-supporting call may take to finish (or to ask) and be answered inline.
INLINE_GRACE = 0.25
TASK_METHODS = ("tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list")
# tasks/result and tasks/list left the protocol with 2026-07-28 (the result is in tasks/get).
HANDSHAKE_ONLY = frozenset({"tasks/result", "tasks/list"})


class TaskParams(RequestParams):
    """The params of tasks/get, tasks/cancel and tasks/result."""

    task_id: str = Field(alias="taskId")


class UpdateParams(TaskParams):
    """The params of tasks/update: answers to the questions the task waits on."""

    input_responses: dict[str, Any] = Field(default_factory=dict, alias="inputResponses")


class ListParams(RequestParams):
    """The params of tasks/list (2025-11-25); the cursor is accepted, the answer is one page."""

    cursor: str | None = None


class _Detached:
    """A request's session as a task's handler keeps it: what it sends after its request was
    answered (a log line, progress) may find the stream closed, which must not fail the task."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    async def send_log_message(self, *args: Any, **kwargs: Any) -> None:
        with contextlib.suppress(Exception):
            await self._session.send_log_message(*args, **kwargs)

    async def report_progress(self, *args: Any, **kwargs: Any) -> None:
        with contextlib.suppress(Exception):
            await self._session.report_progress(*args, **kwargs)


class TaskCalls:
    """The task-supporting tools' calls, and the tasks/* methods, of one dispatcher."""

    def __init__(self, dispatcher: Any, store: TaskStore | None = None) -> None:
        self.dispatcher = dispatcher
        self.store = store or TaskStore()
        self.support = {
            str(d["name"]): task_support(d)
            for d in dispatcher.published
            if isinstance(d, Mapping) and task_support(d) != "forbidden"
        }
        self._plain_call: Callable[..., Any] = dispatcher.call_tool

    # Wiring

    def install(self, server: Any) -> None:
        """Serve tasks on the low-level `server` and declare them in both eras."""
        server.extensions[TASKS_EXTENSION] = {}
        declared = server.get_capabilities

        def get_capabilities(*args: Any, **kwargs: Any) -> Any:
            capabilities = declared(*args, **kwargs)
            if kwargs.get("protocol_version") is None:  # the handshake's: tasks in the core
                capabilities.tasks = handshake_capability()
            return capabilities

        server.get_capabilities = get_capabilities
        entry = server.get_request_handler("tools/call")
        params_type = entry.params_type if entry is not None else CallToolRequestParams
        server.add_request_handler("tools/call", params_type, self.call_tool)
        server.add_request_handler("tasks/get", TaskParams, self.get)
        server.add_request_handler("tasks/update", UpdateParams, self.update)
        server.add_request_handler("tasks/cancel", TaskParams, self.cancel)
        server.add_request_handler("tasks/result", TaskParams, self.result)
        server.add_request_handler("tasks/list", ListParams, self.list_tasks)
        server.middleware.append(self.handshake_task_call)

    # tools/call

    async def call_tool(self, ctx: ServerRequestContext[Any], params: CallToolRequestParams) -> Any:
        """tools/call: a plain call for a tool without task support or a client that does not
        declare the tasks extension (a `required` tool is refused then), else the call started
        as a task (answered inline if it settles in time)."""
        support = self.support.get(params.name)
        if support is None:
            return await self._plain_call(ctx, params)
        if not _modern(ctx):
            if support == "required":
                message = f"Tool {params.name!r} runs only as a task: call it with `task`"
                raise MCPError(METHOD_NOT_FOUND, message)
            return await self._plain_call(ctx, params)
        if not _declares_tasks(ctx):
            if support == "required":
                raise _missing_extension(f"Tool {params.name!r} runs only as a task")
            return await self._plain_call(ctx, params)
        return await self._start(ctx, params.name, params.arguments or {})

    async def handshake_task_call(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> WireResult:
        """Server middleware: a 2025-11-25 `tools/call` with `task` is answered with the task
        (a shape the SDK's tools/call result models do not hold)."""
        params = ctx.params
        if (
            ctx.method != "tools/call"
            or _modern(ctx)
            or not isinstance(params, Mapping)
            or not isinstance(params.get("task"), Mapping)
            or params.get("name") not in self.support
        ):
            return await call_next(ctx)
        name, arguments = params["name"], params.get("arguments") or {}
        if not isinstance(arguments, Mapping):
            raise MCPError(INVALID_PARAMS, "tools/call arguments must be an object")
        task = self._task(ctx)
        task.told = True
        self.store.add(task)
        job = asyncio.ensure_future(self._run(task, ctx, str(name), arguments, _nothing))
        job.add_done_callback(_retrieved)
        task.job = job
        return {"task": task.handshake_fields()}

    def _task(self, ctx: ServerRequestContext[Any, Any]) -> Task:
        return self.store.new(_owner(ctx))

    def _context(self, ctx: ServerRequestContext[Any, Any]) -> Context:
        log_levels: LogLevels = self.dispatcher.log_levels
        return Context(ctx, env_names=self.dispatcher.policy.env_names, log_levels=log_levels)

    async def _start(
        self, ctx: ServerRequestContext[Any], name: str, arguments: Mapping[str, Any]
    ) -> Any:
        """Run the call; answer inline if it settles (or asks) in time, else with its task."""
        task = self._task(ctx)
        started = asyncio.Event()

        def begin() -> None:
            if not task.told:
                task.told = True
                self.store.add(task)
                started.set()

        job = asyncio.ensure_future(self._run(task, ctx, name, arguments, begin))
        job.add_done_callback(_retrieved)
        task.job = job
        waiter = asyncio.ensure_future(started.wait())
        try:
            await asyncio.wait(
                (job, waiter), timeout=INLINE_GRACE, return_when=asyncio.FIRST_COMPLETED
            )
        except BaseException:
            if not task.told:
                job.cancel()  # the client left before it was told of a task
            raise
        finally:
            waiter.cancel()
        if not task.told and job.done():
            return job.result()  # raises what the job raised: a protocol error, inline
        begin()
        return {"resultType": "task", **task.fields()}

    async def _run(
        self,
        task: Task,
        ctx: ServerRequestContext[Any, Any],
        name: str,
        arguments: Mapping[str, Any],
        begin: Callable[[], None],
    ) -> CallToolResult | InputRequiredResult:
        """The task's job: the handler, again with the answers each time it asked."""
        params = dict(ctx.params) if isinstance(ctx.params, Mapping) else {}
        session: Any = _Detached(ctx.session)
        detached = dataclasses.replace(ctx, session=session, params=params)
        try:
            while True:
                context = self._context(detached)
                context.task_begin = begin
                try:
                    outcome: CallToolResult | InputRequiredResult = await self.dispatcher.call(
                        name, arguments, context
                    )
                except MCPError as exc:
                    task.settle("failed", error=_error(exc.error.code, exc.error.message))
                    raise
                if isinstance(outcome, InputRequiredResult):
                    if not task.told:
                        return outcome  # asked before it became a task: asked inline
                    await self._wait_for_answers(task, outcome)
                    answers = {**params.get("inputResponses", {}), **task.answers}
                    params = {**params, "inputResponses": answers}
                    params["requestState"] = task.request_state
                    detached = dataclasses.replace(detached, params=params)
                    continue
                task.settle("completed", result=_wire(outcome))
                return outcome
        except asyncio.CancelledError:
            task.settle("cancelled", message="cancelled by the client")
            raise
        except MCPError:
            raise
        except Exception as exc:  # not the handler's (that is a tool error): the task's own
            logger.exception("task %s failed", task.task_id)
            task.settle("failed", error=_error(INTERNAL_ERROR, f"the task failed: {exc}"))
            raise MCPError(INTERNAL_ERROR, "the task failed") from None

    @staticmethod
    async def _wait_for_answers(task: Task, asked: InputRequiredResult) -> None:
        requests = {
            key: request.model_dump(mode="json", by_alias=True, exclude_none=True)
            if hasattr(request, "model_dump")
            else request
            for key, request in (asked.input_requests or {}).items()
        }
        task.ask(requests, asked.request_state)
        while task.status == "input_required":
            await task.changed.wait()

    # tasks/*

    def _find(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> Task:
        if _modern(ctx):
            if ctx.method in HANDSHAKE_ONLY:
                raise MCPError(METHOD_NOT_FOUND, "Method not found", ctx.method)
            if not _declares_tasks(ctx):
                raise _missing_extension(f"{ctx.method} needs the tasks extension")
            _check_name_header(ctx, params.task_id)
        task = self.store.get(params.task_id, _owner(ctx))
        if task is None:
            raise MCPError(INVALID_PARAMS, f"Unknown task: {params.task_id}")
        return task

    async def get(self, ctx: ServerRequestContext[Any], params: TaskParams) -> dict[str, Any]:
        """tasks/get: the caller's task, with its result, error or questions on the 2026-07-28
        wire, its status alone on the 2025-11-25 one."""
        task = self._find(ctx, params)
        return task.detailed() if _modern(ctx) else task.handshake_fields()

    async def update(self, ctx: ServerRequestContext[Any], params: UpdateParams) -> dict[str, Any]:
        """tasks/update (2026-07-28 only): answers to the questions the task waits on."""
        if not _modern(ctx):
            raise MCPError(METHOD_NOT_FOUND, "Method not found", ctx.method)
        task = self._find(ctx, params)
        task.answer(params.input_responses)
        return {}

    async def cancel(self, ctx: ServerRequestContext[Any], params: TaskParams) -> dict[str, Any]:
        """tasks/cancel: the task settled as cancelled and its job stopped; a task settled
        already stays as it is (on the 2025-11-25 wire, that is an error)."""
        task = self._find(ctx, params)
        if not _modern(ctx) and task.terminal:
            raise MCPError(INVALID_PARAMS, f"Cannot cancel task: it is {task.status} already")
        if not task.terminal:
            task.settle("cancelled", message="cancelled by the client")
            if task.job is not None:
                task.job.cancel()
        return {} if _modern(ctx) else task.handshake_fields()

    async def result(self, ctx: ServerRequestContext[Any], params: TaskParams) -> dict[str, Any]:
        """2025-11-25: the task's result once it has one (waits for it)."""
        task = self._find(ctx, params)
        while not task.terminal:
            await task.changed.wait()
        if task.status == "failed" and task.error is not None:
            raise MCPError(task.error["code"], task.error["message"])
        if task.result is None:
            raise MCPError(INVALID_PARAMS, f"Task {task.task_id} was {task.status}")
        meta = {**task.result.get("_meta", {}), RELATED_TASK: {"taskId": task.task_id}}
        return {**task.result, "_meta": meta}

    async def list_tasks(
        self, ctx: ServerRequestContext[Any], params: ListParams
    ) -> dict[str, Any]:
        """2025-11-25: the caller's tasks (one page: they are few and short-lived)."""
        if _modern(ctx):
            raise MCPError(METHOD_NOT_FOUND, "Method not found", ctx.method)
        owner = _owner(ctx)
        return {"tasks": [t.handshake_fields() for t in self.store.owned_by(owner)]}


def handshake_capability() -> Any:
    """The 2025-11-25 `tasks` server capability: tools/call as tasks, listed and cancelled."""
    from mcp.types import (  # noqa: PLC0415  (only when the server runs tasks)
        ServerTasksCapability,
        ServerTasksRequestsCapability,
        TasksCallCapability,
        TasksCancelCapability,
        TasksListCapability,
        TasksToolsCapability,
    )

    return ServerTasksCapability(
        list=TasksListCapability(),
        cancel=TasksCancelCapability(),
        requests=ServerTasksRequestsCapability(
            tools=TasksToolsCapability(call=TasksCallCapability())
        ),
    )


def _owner(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """The authenticated caller a task belongs to (None without authentication). Read
    without a `Context` of the request, whose making would spend its request state."""
    http = getattr(ctx, "request", None)
    token = caller.verified_token(http) or get_access_token()
    return None if token is None else (token.subject or token.client_id)


def _modern(ctx: ServerRequestContext[Any, Any]) -> bool:
    version = ctx.protocol_version
    return isinstance(version, str) and version >= MODERN_ERA


def _declares_tasks(ctx: ServerRequestContext[Any, Any]) -> bool:
    declared = getattr(ctx.session, "client_capabilities", None)
    extensions = getattr(declared, "extensions", None) or {}
    return TASKS_EXTENSION in extensions


def _missing_extension(why: str) -> MCPError:
    data: dict[str, Any] = {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}}
    return MCPError(MISSING_REQUIRED_CAPABILITY, f"{why}: declare {TASKS_EXTENSION}", data)


def _check_name_header(ctx: ServerRequestContext[Any, Any], task_id: str) -> None:
    """Over HTTP, an `Mcp-Name` header on tasks/* names the task of the body (SEP-2663)."""
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    if headers is None:
        return
    sent = headers.get(MCP_NAME_HEADER)
    if sent is not None and decode_header_value(sent) != task_id:
        raise MCPError(HEADER_MISMATCH, f"{MCP_NAME_HEADER} header does not match the taskId")


def _nothing() -> None:
    """`begin_task` in a call that is a task from its start."""


def _retrieved(job: asyncio.Future[Any]) -> None:
    """Read how a job ended, so that asyncio does not log an error nobody retrieved (a
    failed task's error is in the task)."""
    if not job.cancelled():
        job.exception()


def _wire(result: CallToolResult) -> dict[str, Any]:
    dumped: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def _error(code: int, message: str) -> dict[str, Any]:
    return {"code": code, "message": message}
