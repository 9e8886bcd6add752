# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Answers for the hot requests of a stateless Streamable HTTP server, without a session each.

In stateless mode the SDK serves every POST with a transport, a JSON-RPC dispatcher, a
connection and their memory streams, made for that one request and torn down after it: for
a context-free `tools/call`, a `tools/list` or a `ping`, that costs more than the call. Such
a request is answered here instead, with the stdio fast path's answers (`PlainAnswers`: the
same dispatcher, the SDK's per-version result sieve and error mapping), in the SDK's own
response forms: its JSON body, or its one-event SSE stream with its headers. The
differential tests send the same requests to the SDK's own stateless app and compare status,
headers and body.

It sits where the SDK's endpoint sits, inside the SDK's bearer-token check and behind the
`Gate` (body limits, per-tool scopes, draining), and it first makes the checks the SDK's
transport makes: the Host/Origin allow-list, the Accept and Content-Type headers, a
handshake-era protocol version. Everything else (a failed check, another method or shape,
a session header, a 2026-era request) goes to the SDK as it came, the body replayed.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pydantic_core
from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http import (
    CONTENT_TYPE_JSON,
    CONTENT_TYPE_SSE,
    MCP_SESSION_ID_HEADER,
    check_accept_headers,
)
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp.types import DEFAULT_NEGOTIATED_VERSION, JSONRPCRequest, jsonrpc_message_adapter
from pydantic import ValidationError
from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..core.sdk_contract import VERIFIED_PROTOCOLS
from ..dispatch.dispatcher import Dispatcher
from ..stdio.fast_path import PlainAnswers
from .gate import replaying
from .options import HttpOptions

logger = logging.getLogger(__name__)

_VERSION_HEADER = MCP_PROTOCOL_VERSION_HEADER.lower().encode("latin-1")
_SESSION_HEADER = MCP_SESSION_ID_HEADER.lower().encode("latin-1")
# What the SDK's transport sends with an SSE answer to a POST (stateless: no session id).
_SSE_HEADERS = {
    "Cache-Control": "no-cache, no-transform",
    "Connection": "keep-alive",
    "Content-Type": CONTENT_TYPE_SSE,
}


class StatelessFastPath:
    """The ASGI app in front of the SDK's endpoint (see the module docstring)."""

    def __init__(
        self,
        sdk: ASGIApp,
        answers: PlainAnswers,
        security: TransportSecuritySettings | None,
        *,
        json_response: bool,
    ) -> None:
        self._sdk = sdk
        self._answers = answers
        self._security = TransportSecurityMiddleware(security)
        self._json_response = json_response

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        version = self._version(scope)
        if version is None:
            await self._sdk(scope, receive, send)
            return
        request = Request(scope, receive)
        if not await self._acceptable(request):
            await self._sdk(scope, receive, send)
            return
        body = await request.body()
        message = self._plain(body)
        if message is None:
            await self._sdk(scope, replaying(body, receive), send)
            return
        response: Response
        if self._json_response:
            response = Response(
                await self._answer(message, version, request),
                headers={"Content-Type": CONTENT_TYPE_JSON},
            )
        else:
            # The stream opens before the call runs, as the SDK's does: its keep-alive pings
            # hold a slow call's connection open, and a client that leaves cancels the call.
            events = self._event(message, version, request)
            response = EventSourceResponse(events, headers=_SSE_HEADERS)
        await response(scope, receive, send)

    async def _answer(self, message: JSONRPCRequest, version: str, request: Request) -> str:
        reply = await self._answers.reply(message, version, request)
        return reply.model_dump_json(by_alias=True, exclude_unset=True)

    async def _event(
        self, message: JSONRPCRequest, version: str, request: Request
    ) -> AsyncIterator[dict[str, str]]:
        yield {"event": "message", "data": await self._answer(message, version, request)}

    def _version(self, scope: Scope) -> str | None:
        """The request's protocol version if this path may answer it, else None."""
        if scope["type"] != "http" or scope["method"] != "POST":
            return None
        found: str | None = None
        for name, value in scope["headers"]:
            if name == _SESSION_HEADER:
                return None
            if name == _VERSION_HEADER:
                found = value.decode("latin-1")
        if found is not None and found not in VERIFIED_PROTOCOLS.handshake:
            return None  # the SDK's 2026-era entry, or its refusal of an unknown version
        version = DEFAULT_NEGOTIATED_VERSION if found is None else found
        return version if PlainAnswers.serves_version(version) else None

    async def _acceptable(self, request: Request) -> bool:
        """The checks the SDK's transport makes before it reads the body."""
        if await self._security.validate_request(request, is_post=True) is not None:
            return False
        has_json, has_sse = check_accept_headers(request)
        if not (has_json if self._json_response else has_json and has_sse):
            return False
        content_type = request.headers.get("content-type", "")
        parts = [part.strip() for part in content_type.split(";")[0].split(",")]
        return CONTENT_TYPE_JSON in parts

    def _plain(self, body: bytes) -> JSONRPCRequest | None:
        try:
            message = jsonrpc_message_adapter.validate_python(
                pydantic_core.from_json(body), by_name=False
            )
        except (ValueError, ValidationError):
            return None  # the SDK words the refusal
        if isinstance(message, JSONRPCRequest) and self._answers.plain(message):
            return message
        return None


def install(
    app: Starlette,
    server: Server[Any],
    dispatcher: Dispatcher,
    security: TransportSecuritySettings | None,
    options: HttpOptions,
) -> bool:
    """Put the fast path in front of the SDK's endpoint of a stateless app; False (and
    nothing changed) when the answers would not be the SDK's or the app is not laid out as
    this SDK release lays it out."""
    answers = PlainAnswers(dispatcher, server)
    if not answers.usable:
        return False
    for route in app.routes:
        if not isinstance(route, Route) or route.path != options.path:
            continue
        # The endpoint is the SDK's ASGI app, or its bearer check wrapping it.
        holder: Any = route if isinstance(route.app, StreamableHTTPASGIApp) else route.app
        if not isinstance(getattr(holder, "app", None), StreamableHTTPASGIApp):
            return False
        holder.app = StatelessFastPath(
            holder.app, answers, security, json_response=options.json_response
        )
        return True
    return False
