# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Answers for the hot requests of a stdio session, without the SDK's per-request machinery.

Once a session is initialized (handshake era), `tools/call` of a tool whose handler takes no
context, `tools/list` and `ping` are answered here: the same dispatcher, the same result
shaping (`serialize_server_result`, the SDK's own per-version sieve) and the same error
mapping as the SDK's runner, so the answers are byte for byte what the SDK would send. What
is skipped is the relay through its memory streams, its per-request session and context
objects and its re-validation of the parameters, which cost more than the call itself.

Everything else goes to the SDK: `initialize` and every other method, a request before the
session is initialized, one with `_meta` (a progress token, a log-level opt-in, a 2026-era
envelope) or any parameter beyond the plain ones, a tool that wants a `Context` or asks for
confirmation, and every request when the server was given middleware or cache hints that
this module does not reproduce, and every request where `core.sdk_contract` says the fast
paths are off (an SDK release other than those the differential tests proved them with).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.lowlevel.server import Server
from mcp.server.request_state import RequestStateBoundary
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp.types import (
    CONNECTION_CLOSED,
    INTERNAL_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCRequest,
    JSONRPCResponse,
    ListToolsResult,
    RequestId,
)
from mcp.types.methods import serialize_server_result
from pydantic import BaseModel, ValidationError

from ..core.sdk_contract import VERIFIED_PROTOCOLS, fast_paths
from ..dispatch.context import input_required_results
from ..dispatch.dispatcher import Dispatcher
from ..dispatch.telemetry import TELEMETRY, is_metrics_middleware, trace_context_only

try:  # private parts of the SDK, there in every release `core.sdk_contract` accepts
    from mcp.server._otel import OpenTelemetryMiddleware
    from mcp.shared.jsonrpc_dispatcher import handler_exception_to_error_data
except ImportError:  # pragma: no cover
    SDK_PARTS = False
else:
    SDK_PARTS = True

logger = logging.getLogger(__name__)

# How long an answer may wait for room in the writer's queue (which only a stopped writer
# leaves full) before it is dropped.
DRAIN_SECONDS = 30.0
METHODS = frozenset({"tools/call", "tools/list", "ping"})
_CALL_KEYS = frozenset({"name", "arguments"})


class PlainAnswers:
    """The answers to plain requests, as the SDK's runner would give them; shared by the
    stdio and the stateless HTTP fast paths."""

    def __init__(self, dispatcher: Dispatcher, server: Server[Any]) -> None:
        self._dispatcher = dispatcher
        # Middleware other than the default tracing, our own tools/list rewrite and the
        # runtime's multi-round parts could change an answer; cache hints would add fields.
        # Then the SDK answers everything. The request-state boundary and input-required
        # middleware act only on a request carrying `requestState` (not plain, so never
        # here) or a result asking for input (only a handler with a Context asks).
        self.usable = (
            SDK_PARTS
            and fast_paths().on
            and not any(method in getattr(server, "cache_hints", {}) for method in METHODS)
            and all(
                isinstance(m, OpenTelemetryMiddleware | RequestStateBoundary)
                or m == dispatcher.publish_definitions
                or m is input_required_results
                or is_metrics_middleware(m)
                for m in server.middleware
            )
        )

    @staticmethod
    def serves_version(version: object) -> bool:
        """A handshake-era version, whose answers are the ones proven identical."""
        return version in VERIFIED_PROTOCOLS.handshake

    def plain(self, request: JSONRPCRequest) -> bool:
        """`tools/call` of a context-free tool with nothing but a name and arguments, or a
        parameterless `tools/list` or `ping`; with traces on, a `_meta` holding only a
        trace context may come with them (its span is the SDK's, parented to it)."""
        params = request.params
        if isinstance(params, dict) and "_meta" in params:
            if not trace_context_only(params["_meta"]):
                return False
            params = {key: value for key, value in params.items() if key != "_meta"}
        if request.method == "tools/call":
            if not isinstance(params, dict) or not _CALL_KEYS.issuperset(params):
                return False
            name, arguments = params.get("name"), params.get("arguments")
            return (
                isinstance(name, str)
                and (arguments is None or isinstance(arguments, dict))
                and self._dispatcher.context_free(name)
            )
        return request.method in METHODS and not params

    async def reply(
        self, request: JSONRPCRequest, version: str, http_request: Any = None
    ) -> JSONRPCResponse | JSONRPCError:
        """The answer to a plain request in a session of protocol `version` (carried by
        `http_request` on HTTP, for what the call's guards read of it)."""
        try:
            params = request.params or {}
            if TELEMETRY.on:  # the span the SDK opens for a request, and the metrics
                answer = functools.partial(
                    self._result, request.method, params, version, http_request
                )
                result = await TELEMETRY.observe(
                    request.method, params, request.id, version, answer
                )
            else:
                result = await self._result(request.method, params, version, http_request)
        except Exception as exc:  # the SDK's mapping of a handler's exception, verbatim
            error = handler_exception_to_error_data(exc)
            if error is None:
                logger.exception("handler for %r raised", request.method)
                error = ErrorData(code=0, message=str(exc))
            return JSONRPCError(jsonrpc="2.0", id=request.id, error=error)
        return JSONRPCResponse(jsonrpc="2.0", id=request.id, result=result)

    async def _result(
        self, method: str, params: Mapping[str, Any], version: str, http_request: Any = None
    ) -> dict[str, Any]:
        outcome: BaseModel | None = None  # ping: an empty result
        if method == "tools/call":
            arguments = params.get("arguments") or {}
            outcome = await self._dispatcher.call(
                params["name"], arguments, http_request=http_request
            )
        elif method == "tools/list":
            outcome = ListToolsResult(tools=[])
        # As the SDK's runner dumps a handler's result.
        data = {} if outcome is None else _dumped(outcome)
        try:
            shaped = serialize_server_result(method, version, data)
        except ValidationError:
            logger.exception("handler for %r returned an invalid result", method)
            raise MCPError(INTERNAL_ERROR, "Handler returned an invalid result") from None
        if method == "tools/list":  # what `Dispatcher.publish_definitions` does on the SDK path
            return {**shaped, "tools": self._dispatcher.published}
        return shaped


class FastPath:
    """Which requests skip the SDK, and their answers (see the module docstring)."""

    def __init__(self, dispatcher: Dispatcher, server: Server[Any]) -> None:
        self._plain_answers = PlainAnswers(dispatcher, server)
        self.usable = self._plain_answers.usable
        self._version: str | None = None  # the session's protocol version, once initialized
        self._initialize_ids: set[RequestId] = set()
        # One plain asyncio task per request: an anyio task group's spawn and cancel scope
        # cost more than the rest of a small call's answer.
        self._running: dict[RequestId, asyncio.Task[None]] = {}
        self._cancelled: set[RequestId] = set()
        self._accepting = False
        self._answers: MemoryObjectSendStream[SessionMessage] | None = None
        self._write_now: Callable[[JSONRPCResponse | JSONRPCError], bool] | None = None

    # --- what the byte pump asks ------------------------------------------------------------

    def takes(self, request: JSONRPCRequest) -> bool:
        """True when this request is answered here (and then started)."""
        if self._version is None or not self._accepting or not self._plain_answers.plain(request):
            if request.method == "initialize":
                self._initialize_ids.add(request.id)
            return False
        if request.id in self._running:  # a reused id: the SDK decides what that means
            return False
        self._running[request.id] = asyncio.get_running_loop().create_task(self._answer(request))
        return True

    def cancel(self, request_id: object) -> bool:
        """Cancel a request answered here, unanswered (True), or say it is not one of ours."""
        task = self._running.get(request_id)  # type: ignore[call-overload]
        if task is None:
            return False
        self._cancelled.add(request_id)  # type: ignore[arg-type]
        task.cancel()
        return True

    def answered(self, message: JSONRPCMessage) -> None:
        """Learn the protocol version from the answer to `initialize`, as it goes out."""
        if not isinstance(message, (JSONRPCResponse, JSONRPCError)):
            return
        if message.id not in self._initialize_ids:
            return
        self._initialize_ids.discard(message.id)
        if isinstance(message, JSONRPCResponse):
            version = message.result.get("protocolVersion")
            legacy = PlainAnswers.serves_version(version)
            self._version = version if self.usable and legacy else None

    @asynccontextmanager
    async def serving(
        self,
        answers: MemoryObjectSendStream[SessionMessage],
        write_now: Callable[[JSONRPCResponse | JSONRPCError], bool] | None = None,
    ) -> AsyncIterator[None]:
        """Accept requests for the duration; on the way out, requests still running are
        cancelled and answered "Connection closed", as the SDK answers its own.

        Answers go to `answers`, or straight out through `write_now` when it can take one.
        """
        async with answers:
            self._answers, self._write_now, self._accepting = answers, write_now, True
            try:
                yield
            finally:
                self._accepting = False
                running = list(self._running.values())
                for task in running:
                    task.cancel()
                with anyio.CancelScope(shield=True):  # their answers go out before `answers` closes
                    await asyncio.gather(*running, return_exceptions=True)

    # --- answering --------------------------------------------------------------------------

    async def _answer(self, request: JSONRPCRequest) -> None:
        reply: JSONRPCResponse | JSONRPCError | None = None
        try:
            assert self._version is not None
            reply = await self._plain_answers.reply(request, self._version)
        except asyncio.CancelledError:
            pass  # the client's cancel (no answer) or the end of the session (answered below)
        finally:
            del self._running[request.id]
            if reply is None and request.id not in self._cancelled:
                error = ErrorData(code=CONNECTION_CLOSED, message="Connection closed")
                reply = JSONRPCError(jsonrpc="2.0", id=request.id, error=error)
            self._cancelled.discard(request.id)
            if reply is not None and self._answers is not None:
                await self._send(reply)

    async def _send(self, reply: JSONRPCResponse | JSONRPCError) -> None:
        """Queue `reply` for the writer, even from a cancelled task."""
        assert self._answers is not None
        # Alone, an answer goes out at once; with other calls running, it joins the queue,
        # where answers finishing together go out in one write.
        if not self._running and self._write_now is not None and self._write_now(reply):
            return
        message = SessionMessage(reply)
        try:
            try:
                self._answers.send_nowait(message)
            except anyio.WouldBlock:  # the writer is behind: wait for room, uncancellable
                with anyio.move_on_after(DRAIN_SECONDS, shield=True):
                    await self._answers.send(message)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            logger.debug("dropped the answer to %r: the output is closed", reply.id)


def _dumped(result: BaseModel) -> dict[str, Any]:
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)
