# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Resources and resource templates: list, read, template matching, subscriptions.

A resource's contents are static (text, or a base64 blob of a project file shipped in the
package) or come from the user's handler. A template's variables are matched out of the URI,
converted to the types their JSON Schemas give, checked, and passed to the handler by name.
"""

from __future__ import annotations

import asyncio
import base64
import inspect
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import anyio
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    BlobResourceContents,
    ReadResourceResult,
    TextResourceContents,
)

from ..core.errors import ToolError, new_error_id, quote
from ..core.limits import PoolSaturated
from ..core.results import plain_json
from ..dispatch.context import InputRequired
from ..validation.schema_check import SchemaCheck, off_loop_if
from .completions import CompletionSource, being_cancelled
from .handler_calls import HandlerPolicy, TimedOut, run_handler
from .template_values import Refused, check_safe, decoded, shown, typed
from .uri_template import MAX_URI_LENGTH, UriTemplate, Variable

# The protocol's code for a URI no resource or template answers to.
RESOURCE_NOT_FOUND = -32002
logger = logging.getLogger(__name__)
PAGE_SIZE = 100
_CURSOR = re.compile(r"[0-9]{1,18}")
# Seconds one subscriber is given to take an update notification.
NOTIFY_TIMEOUT = 5.0
# How much of a URI an error's data echoes.
MAX_SHOWN_URI = 200
# How much of a schema's refusal of a template variable an error message quotes.
_PROBLEM_LIMIT = 200

ResourceContents: TypeAlias = TextResourceContents | BlobResourceContents
ReadResult: TypeAlias = (
    str | bytes | Mapping[str, Any] | ResourceContents | Sequence[ResourceContents]
)
ReadHandler: TypeAlias = Callable[..., ReadResult | Awaitable[ReadResult]]


@dataclass(frozen=True)
class ResourceSpec:
    """A resource at a fixed URI: `text`, `blob` (base64) or a handler gives its contents."""

    definition: Mapping[str, Any]  # the resources/list entry
    text: str | None = None
    blob: str | None = None
    handler: ReadHandler | None = None
    subscribe: bool = False

    @property
    def uri(self) -> str:
        return str(self.definition["uri"])


@dataclass(frozen=True)
class TemplateSpec:
    """Resources named by an RFC 6570 template; the handler gets its variables, typed."""

    definition: Mapping[str, Any]  # the resources/templates/list entry
    handler: ReadHandler
    parameters: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    completions: Mapping[str, CompletionSource] = field(default_factory=dict)

    # Variables given to the handler as decoded, without the path-safety refusals.
    raw: frozenset[str] = frozenset()

    @property
    def uri_template(self) -> str:
        return str(self.definition["uriTemplate"])


def page(items: Sequence[Any], cursor: str | None) -> tuple[list[Any], str | None]:
    """One page of `items` from the opaque `cursor`, and the cursor of the next page."""
    start = 0
    if cursor is not None:
        # Only what `page` hands out: `str.isdigit` also takes '²' (which int() refuses) and
        # Arabic-Indic digits, and int() refuses past 4,300 digits; either way the client's mistake.
        if not _CURSOR.fullmatch(cursor) or int(cursor) > len(items):
            raise MCPError(INVALID_PARAMS, f"invalid cursor {shown(cursor)}")
        start = int(cursor)
    end = start + PAGE_SIZE
    return list(items[start:end]), (str(end) if end < len(items) else None)


def not_found(uri: str) -> MCPError:
    return refusal(uri, "Resource not found", RESOURCE_NOT_FOUND)


def refusal(uri: str, message: str, code: int = INVALID_PARAMS) -> MCPError:
    """A protocol error about `uri` whose size does not follow the URI's."""
    return MCPError(code, message, {"uri": _cut(uri)})


def _cut(uri: str) -> str:
    """`uri` for an error's data: bounded, and a lone surrogate written as its escape."""
    cut = uri if len(uri) <= MAX_SHOWN_URI else uri[:MAX_SHOWN_URI] + "…"
    return cut if cut.isascii() else cut.encode("utf-8", "backslashreplace").decode("utf-8")


def unreadable(uri: str) -> MCPError | None:
    """The refusal of a URI no template is matched against, if it is one: one over the
    length limit, or one that is not Unicode text (a lone surrogate, from a JSON escape)."""
    if len(uri) > MAX_URI_LENGTH:
        message = f"the URI is {len(uri)} characters long, over the limit of {MAX_URI_LENGTH}"
        return refusal(uri, message)
    if not uri.isascii():
        try:
            uri.encode("utf-8")
        except UnicodeEncodeError:
            return refusal(uri, _NOT_UNICODE)
    return None


_NOT_UNICODE = "the URI is not Unicode text: it holds a lone surrogate (a \\udcxx escape)"


class CompiledTemplate:
    """A template spec, ready to turn a URI into its handler's checked keyword arguments."""

    def __init__(self, spec: TemplateSpec) -> None:
        self.spec = spec
        self.matcher = UriTemplate(spec.uri_template)
        self.checks = {name: SchemaCheck(schema) for name, schema in spec.parameters.items()}
        self._isolated = any(check.isolated for check in self.checks.values())
        self._defaulted = _defaulted_parameters(spec.handler)

    async def arguments(self, uri: str) -> dict[str, Any] | None:
        """The handler's keyword arguments for `uri`, None if it does not match.

        MCPError (invalid params) when a variable is unsafe, missing or fails its schema.
        Off the event loop when a schema's pattern may wait for the regex child process.
        """
        return await off_loop_if(self._isolated, self.arguments_now, uri)

    def arguments_now(self, uri: str) -> dict[str, Any] | None:
        """`arguments`, on this thread."""
        found = self.matcher.match(uri)
        if found is None:
            return None
        path, pairs = found
        arguments: dict[str, Any] = {}
        try:
            for variable in self.matcher.path_variables:
                arguments[variable.name] = self._value(variable, path[variable.name])
            arguments |= self._query_arguments(pairs)
        except Refused as refused:
            raise refusal(uri, str(refused)) from None
        return arguments

    def _query_arguments(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        given: dict[str, str] = {}
        wanted = {v.name: v for v in self.matcher.query_variables}
        for name, raw in pairs:
            if name in given:
                raise Refused(f"{name}: the query gives it more than once")
            if name in wanted:
                given[name] = raw
        arguments = {}
        for name, variable in wanted.items():
            if name in given:
                arguments[name] = self._value(variable, given[name])
            elif "default" in self.spec.parameters.get(name, {}):
                arguments[name] = self.spec.parameters[name]["default"]
            elif name not in self._defaulted:
                raise Refused(f"{name}: the URI's query has no {name}= (the handler needs it)")
        return arguments

    def _value(self, variable: Variable, raw: str) -> Any:
        name = variable.name
        try:
            text = decoded(raw)
            if name not in self.spec.raw:
                one_segment = not (variable.multi_segment or variable.in_query)
                check_safe(text, one_segment=one_segment)
            value = typed(text, self.spec.parameters.get(name, {}))
        except Refused as refused:
            raise Refused(f"{name}: {refused}") from None
        check = self.checks.get(name)
        problems = check.problems(value) if check is not None else []
        if problems:
            raise Refused(f"{name}: {quote(problems[0], _PROBLEM_LIMIT)}")
        return value


def _defaulted_parameters(handler: Callable[..., Any]) -> frozenset[str]:
    """The handler's parameters that have a default (a query variable may then be left out),
    or every name when it takes `**kwargs`."""
    try:
        parameters = inspect.signature(handler).parameters.values()
    except (TypeError, ValueError):  # a callable without a signature: nothing is optional
        return frozenset()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return _EVERY_NAME
    return frozenset(p.name for p in parameters if p.default is not inspect.Parameter.empty)


class _EveryName(frozenset[str]):
    def __contains__(self, item: object) -> bool:
        return True


_EVERY_NAME = _EveryName()


async def call_handler(
    handler: Callable[..., Any],
    context: Any,
    policy: HandlerPolicy,
    /,
    **arguments: Any,
) -> Any:
    """Call a sync or async handler, giving it the context when it takes a `ctx` parameter.

    A sync handler runs on a worker thread, so one that blocks stalls no other request; either
    kind is stopped waiting for after the server's timeout. What it raises becomes a protocol
    error that names the exception's type and an error id (the message, which may hold a
    secret, goes to the log); a `ToolError` says its own message, redacted. Not even
    `SystemExit` escapes: one bad handler must not end the server. (Positional-only
    parameters: the handler's own arguments may have any name.)
    """
    if "ctx" in inspect.signature(handler).parameters:
        arguments["ctx"] = context
    try:
        return await run_handler(handler, arguments, policy)
    except (MCPError, InputRequired):  # the handler's own protocol answer, or its question
        raise
    except ToolError as exc:
        raise MCPError(INTERNAL_ERROR, policy.redact(str(exc))) from None
    except NotImplementedError:  # the stub mcpgen wrote
        raise MCPError(INTERNAL_ERROR, "the handler is not implemented yet") from None
    except TimedOut:
        message = f"the handler did not answer within the server's timeout ({policy.timeout} s)"
        raise MCPError(INTERNAL_ERROR, message) from None
    except PoolSaturated as exc:
        raise MCPError(INTERNAL_ERROR, str(exc)) from None
    except BaseException as exc:
        if isinstance(exc, asyncio.CancelledError) and being_cancelled():
            raise
        error_id = new_error_id()
        name = getattr(handler, "__name__", repr(handler))
        trace = (type(exc), exc, exc.__traceback__)
        logger.error("handler %s failed (error id %s)", name, error_id, exc_info=trace)
        message = f"the handler failed: {type(exc).__name__} (error id {error_id})"
        raise MCPError(INTERNAL_ERROR, message) from None


def contents(uri: str, mime_type: str | None, outcome: ReadResult) -> ReadResourceResult:
    """A handler's return value as resources/read's result; MCPError when it is none."""
    try:
        return _contents(uri, mime_type, outcome)
    except (ValueError, TypeError) as exc:  # pydantic's ValidationError, NotJson among them
        # The exception's text may quote the value: the client is told its type only.
        logger.warning("a resource handler's value for %s is not contents: %s", _cut(uri), exc)
        message = f"the handler returned {type(outcome).__name__}, which is not resource contents"
        raise refusal(uri, message, INTERNAL_ERROR) from None


def _contents(uri: str, mime_type: str | None, outcome: ReadResult) -> ReadResourceResult:
    if isinstance(outcome, (TextResourceContents, BlobResourceContents)):
        return ReadResourceResult(contents=[outcome])
    if isinstance(outcome, (list, tuple)):
        return ReadResourceResult(contents=list(outcome))
    if isinstance(outcome, bytes):
        blob = base64.b64encode(outcome).decode("ascii")
        return ReadResourceResult(
            contents=[BlobResourceContents(uri=uri, mime_type=mime_type, blob=blob)]
        )
    if isinstance(outcome, Mapping):
        text = json.dumps(plain_json(outcome), ensure_ascii=False, allow_nan=False)
        return ReadResourceResult(
            contents=[
                TextResourceContents(uri=uri, mime_type=mime_type or "application/json", text=text)
            ]
        )
    if isinstance(outcome, Iterator):  # refused as a tool's: its text would be its repr
        raise TypeError(type(outcome).__name__)
    return ReadResourceResult(
        contents=[TextResourceContents(uri=uri, mime_type=mime_type, text=str(outcome))]
    )


class Subscriptions:
    """Which connections asked for updates of which URIs.

    A connection's subscriptions go when it closes (DELETE, idle expiry, a dropped stream,
    the end of stdio): the SDK unwinds its exit stack then. A session that can no longer be
    told is also dropped at the next update. Only the connection is kept, never the request
    that subscribed (its session proxy holds that request's whole context).
    """

    def __init__(self) -> None:
        self._by_uri: dict[str, dict[Any, None]] = {}
        self._by_connection: dict[Any, set[str]] = {}

    def __len__(self) -> int:
        """How many (connection, URI) subscriptions are held."""
        return sum(len(uris) for uris in self._by_connection.values())

    def add(self, uri: str, session: Any) -> None:
        connection = _connection(session)
        if connection not in self._by_connection:
            self._by_connection[connection] = set()
            _on_close(connection, self._forget)
        self._by_connection[connection].add(uri)
        self._by_uri.setdefault(uri, {})[connection] = None

    def remove(self, uri: str, session: Any) -> None:
        self._drop(uri, _connection(session))

    def _drop(self, uri: str, connection: Any) -> None:
        self._by_connection.get(connection, set()).discard(uri)
        subscribers = self._by_uri.get(uri, {})
        subscribers.pop(connection, None)
        if not subscribers:
            self._by_uri.pop(uri, None)

    def _forget(self, connection: Any) -> None:
        for uri in self._by_connection.pop(connection, set()):
            self._drop(uri, connection)

    async def notify(self, uri: str) -> int:
        """Send notifications/resources/updated to each subscriber; how many were told.

        All at once, each given `NOTIFY_TIMEOUT` seconds: a client that stops reading its
        stream must not hold up the others, nor the code that reported the change.
        """
        told: list[Any] = []
        async with anyio.create_task_group() as group:
            for connection in list(self._by_uri.get(uri, {})):
                group.start_soon(self._tell, connection, uri, told)
        return len(told)

    async def _tell(self, connection: Any, uri: str, told: list[Any]) -> None:
        with anyio.move_on_after(NOTIFY_TIMEOUT):
            try:
                await _send_updated(connection, uri)
            except Exception:  # a closed session must not stop the others
                self._drop(uri, connection)
            else:
                told.append(connection)


def _connection(session: Any) -> Any:
    """The SDK's connection behind a request's session proxy (the session itself when this
    SDK has none: it then stays until an update to it fails)."""
    return getattr(session, "_connection", None) or session


def _on_close(connection: Any, forget: Callable[[Any], None]) -> None:
    exit_stack = getattr(connection, "exit_stack", None)
    if exit_stack is not None:
        exit_stack.callback(forget, connection)


async def _send_updated(connection: Any, uri: str) -> None:
    outbound = getattr(connection, "outbound", None)
    if outbound is None:  # a session object: its own method
        await connection.send_resource_updated(uri)
        return
    await outbound.notify("notifications/resources/updated", {"uri": uri})
