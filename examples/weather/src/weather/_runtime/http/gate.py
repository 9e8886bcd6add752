# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The HTTP server's front door: health, draining, slow or large bodies, per-client sessions,
per-tool scopes. It wraps the SDK's Starlette app and runs before it on every request.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

import anyio
import pydantic_core

from ..core.draining import refusal, runs_while_draining
from ..core.message_id import EDGE_BYTES, request_id
from ..core.tool_filter import from_headers, narrowed
from .sessions import SessionBook

if TYPE_CHECKING:
    from mcp.server.auth.provider import TokenVerifier

# ASGI, spelled out (as starlette.types does) to keep starlette out of the imports.
Scope: TypeAlias = MutableMapping[str, Any]
Message: TypeAlias = MutableMapping[str, Any]
Receive: TypeAlias = Callable[[], Awaitable[Message]]
Send: TypeAlias = Callable[[Message], Awaitable[None]]
ASGIApp: TypeAlias = Callable[[Scope, Receive, Send], Awaitable[None]]

logger = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
INVALID_REQUEST = -32600  # JSON-RPC's code, as `mcp.types` names it
SESSION_HEADER = b"mcp-session-id"


@dataclass(frozen=True)
class GateLimits:
    max_body_bytes: int
    read_timeout: float
    max_sessions_per_client: int | None
    # The SDK's idle expiry, mirrored by the per-client count (None: sessions never expire).
    session_idle_timeout: float | None = None


@dataclass(frozen=True)
class ScopeCheck:
    """OAuth mode: the scopes each tool needs, and how to read a request's token."""

    tool_scopes: Mapping[str, tuple[str, ...]]
    verifier: TokenVerifier
    resource_metadata_url: str | None = None


class Gate:
    """ASGI middleware in front of the MCP endpoint."""

    def __init__(
        self,
        app: ASGIApp,
        limits: GateLimits,
        *,
        scopes: ScopeCheck | None = None,
    ) -> None:
        self.app = app
        self.limits = limits
        self.scopes = scopes
        self.tool_scopes = {n: s for n, s in (scopes.tool_scopes if scopes else {}).items() if s}
        self.draining = False
        self.in_flight = 0
        self.sessions = SessionBook(limits.session_idle_timeout)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] == HEALTH_PATH and scope["method"] in ("GET", "HEAD"):
            status, text = (503, "draining") if self.draining else (200, "ok")
            await _reply(send, status, {"status": text})
            return
        if self.draining and scope["method"] not in ("POST", "DELETE"):
            # POSTs are judged by what they ask (`_post`); ending a session is always fine.
            await _reply(send, 503, {"error": "the server is shutting down"}, retry=True)
            return
        if scope["method"] != "POST":
            await self._forward(scope, receive, send)
            return
        # Only POSTs carry calls; a GET stream stays open for the whole session.
        self.in_flight += 1
        try:
            # The request's X-MCP-Tools… narrowing, for the stateless fast path; the SDK's
            # handlers read it from their request (`Dispatcher.publish_definitions`).
            with narrowed(from_headers(scope.get("headers", ()))):
                await self._post(scope, receive, send)
        finally:
            self.in_flight -= 1

    async def _post(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
        if self.draining and not await self._runs_while_draining(body, send):
            return
        if self.tool_scopes and not await self._scopes_allow(scope, body, send):
            return
        replay = replaying(body, receive)
        if not _has_header(scope, SESSION_HEADER) and self.limits.max_sessions_per_client:
            await self._opening(scope, replay, send)
            return
        await self._forward(scope, replay, send)

    async def _forward(self, scope: Scope, receive: Receive, send: Send) -> None:
        """To the SDK; a request within a session is watched for the session's end."""
        session_id = _header(scope, SESSION_HEADER)
        if session_id is None or not self.limits.max_sessions_per_client:
            await self.app(scope, receive, send)
            return
        status = 0

        async def watching(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        self.sessions.request_started(session_id)
        try:
            await self.app(scope, receive, watching)
        finally:
            self.sessions.request_finished(session_id)
            deleted = scope["method"] == "DELETE" and 200 <= status < 300
            if deleted or status == 404:  # 404: the SDK no longer knows the session
                self.sessions.ended(session_id)

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once a 413 or 408 has been sent."""
        limit = self.limits.max_body_bytes
        declared = _header(scope, b"content-length")
        # Only the first bytes of a body declared too large are read: its id, if they hold it.
        too_large = (
            declared is not None
            and declared.isascii()
            and declared.isdigit()
            and (len(declared) > len(str(limit)) or int(declared) > limit)
        )
        wanted = EDGE_BYTES if too_large else limit
        chunks: list[bytes] = []
        size, complete = 0, False
        # A client that sends its body slowly holds a connection and a task: bounded here.
        with anyio.move_on_after(self.limits.read_timeout):
            while not complete and size <= wanted:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                size += len(chunk)
                chunks.append(chunk)
                complete = not message.get("more_body", False)
        if too_large or size > limit:
            await _too_large(send, limit, b"".join(chunks)[:EDGE_BYTES])
            return None
        if not complete:
            await _reply(send, 408, {"error": "the request body was not received in time"})
            return None
        return b"".join(chunks)

    async def _runs_while_draining(self, body: bytes, send: Send) -> bool:
        """While draining, a request that needs no handler is served as usual (its client
        may have a call in flight); one that would start new work gets 503 and the JSON-RPC
        error for its id, which a client hands to the request it sent."""
        try:
            message = pydantic_core.from_json(body)
        except ValueError:
            return True  # the transport answers the parse error
        if runs_while_draining(message):
            return True
        await _reply(send, 503, refusal(message.get("id")), retry=True)
        return False

    async def _scopes_allow(self, scope: Scope, body: bytes, send: Send) -> bool:
        needed = self._needed_scopes(body)
        if not needed or self.scopes is None:
            return True
        authorization = _header(scope, b"authorization") or ""
        token = authorization[7:] if authorization.lower().startswith("bearer ") else ""
        access = await self.scopes.verifier.verify_token(token) if token else None
        if access is None:
            return True  # the SDK's bearer middleware answers 401 for this one
        missing = [s for s in needed if s not in access.scopes]
        if not missing:
            return True
        challenge = f'Bearer error="insufficient_scope", scope="{" ".join(needed)}"'
        if self.scopes.resource_metadata_url:
            challenge += f', resource_metadata="{self.scopes.resource_metadata_url}"'
        description = f"this tool needs the scope(s): {' '.join(missing)}"
        body_out = {"error": "insufficient_scope", "error_description": description}
        await _reply(send, 403, body_out, challenge=challenge)
        return False

    def _needed_scopes(self, body: bytes) -> tuple[str, ...]:
        # Read as the SDK reads it (depth, numbers, surrogates): what cannot be read here
        # cannot be read there either, so a body this check skips is refused as unreadable.
        try:
            message = pydantic_core.from_json(body)
        except ValueError:
            return ()  # the transport answers the parse error
        messages = message if isinstance(message, list) else [message]
        needed: list[str] = []
        for item in messages:
            if isinstance(item, dict) and item.get("method") == "tools/call":
                params = item.get("params")
                name = params.get("name") if isinstance(params, dict) else None
                needed += self.tool_scopes.get(name, ()) if isinstance(name, str) else ()
        return tuple(dict.fromkeys(needed))

    async def _opening(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A request that opens a session: within the client's share of sessions."""
        client = _client_key(scope)
        cap = self.limits.max_sessions_per_client
        if cap is not None and self.sessions.count(client) >= cap:
            logger.warning("client %s has %d open sessions; refusing another", client, cap)
            message = f"too many open sessions for this client ({cap}); close some (DELETE)"
            await _reply(send, 429, {"error": message}, retry=True)
            return
        opened: list[str] = []

        async def noting_session(message: Message) -> None:
            if message["type"] == "http.response.start":
                for key, value in message.get("headers", ()):
                    if key.lower() == SESSION_HEADER:
                        opened.append(value.decode("latin-1"))
                        self.sessions.opened(opened[-1], client)
                        self.sessions.request_started(opened[-1])
            await send(message)

        try:
            await self.app(scope, receive, noting_session)
        finally:
            for session_id in opened:
                self.sessions.request_finished(session_id)


def _client_key(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _has_header(scope: Scope, name: bytes) -> bool:
    return _header(scope, name) is not None


def replaying(body: bytes, receive: Receive) -> Receive:
    """`receive` for an app after `body` was read: the body once, then what `receive` says."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _too_large(send: Send, limit: int, head: bytes) -> None:
    """413, with the JSON-RPC error a client hands to the request it sent, when its id
    shows in the body's first bytes."""
    error = {
        "code": INVALID_REQUEST,
        "message": f"Invalid Request: the message is longer than {limit} bytes",
    }
    await _reply(send, 413, {"jsonrpc": "2.0", "id": request_id(head), "error": error})


async def _reply(
    send: Send,
    status: int,
    payload: Mapping[str, Any],
    *,
    retry: bool = False,
    challenge: str | None = None,
) -> None:
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry:
        headers.append((b"retry-after", b"1"))
    if challenge:
        headers.append((b"www-authenticate", challenge.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
