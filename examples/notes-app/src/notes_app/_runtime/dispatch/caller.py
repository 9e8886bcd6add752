# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Who sent a call, read from the HTTP request that carried it: its headers, its bearer
token, the identity the server verified, its session and its peer address.

Everything here is read from the request object itself (Starlette's, which the SDK hands the
handler's context on HTTP, and the stateless fast path has in hand), never from a variable
shared by the requests of a connection: two clients calling at once each see their own.
On stdio there is no request, and every answer is empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

REDACTED = "[redacted]"
SESSION_HEADER = "mcp-session-id"


class Headers(Mapping[str, str]):
    """A request's headers, read-only, looked up in any case (`headers["X-Api-Key"]` and
    `headers["x-api-key"]` are the same). A header sent twice reads as its first value.

    Printed (`repr`, `str`, a log line), the values of `secret` names read `[redacted]`.
    """

    __slots__ = ("_secret", "_values")

    def __init__(self, pairs: Iterable[tuple[str, str]] = (), secret: Iterable[str] = ()) -> None:
        values: dict[str, str] = {}
        for name, value in pairs:
            values.setdefault(name.lower(), value)
        self._values = values
        self._secret = frozenset(name.lower() for name in secret)

    def __getitem__(self, name: str) -> str:
        return self._values[name.lower()]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        shown = {k: REDACTED if k in self._secret else v for k, v in self._values.items()}
        return f"Headers({shown!r})"

    __str__ = __repr__

    def secret_values(self) -> tuple[str, ...]:
        """The values of the secret headers this request carries."""
        return tuple(v for k, v in self._values.items() if k in self._secret and v)


NO_HEADERS = Headers()


def request_headers(http_request: Any, secret: Iterable[str] = ()) -> Headers:
    """The headers of `http_request` (a Starlette request; None on stdio)."""
    raw = getattr(http_request, "headers", None)
    if raw is None:
        return NO_HEADERS
    return Headers(raw.items(), secret)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None for any other."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def request_bearer(http_request: Any) -> str | None:
    """The bearer token `http_request` carries (verified first when the server runs in
    bearer or OAuth mode: a request with a refused token never reaches a handler)."""
    raw = getattr(http_request, "headers", None)
    return None if raw is None else bearer_token(raw.get("authorization"))


def verified_token(http_request: Any) -> Any:
    """The SDK's `AccessToken` the server verified for this very request, or None.

    Read from the request's ASGI scope, where the SDK's authentication middleware put it:
    its context variable would be the one of the request that opened a stateful session.
    """
    scope = getattr(http_request, "scope", None)
    user = scope.get("user") if isinstance(scope, Mapping) else None
    return getattr(user, "access_token", None)


def session_id(http_request: Any) -> str | None:
    """The `Mcp-Session-Id` header of `http_request`; None on stdio or without a session."""
    raw = getattr(http_request, "headers", None)
    return None if raw is None else raw.get(SESSION_HEADER)


def peer_address(http_request: Any) -> str | None:
    """The client's IP address as the HTTP server saw it; None on stdio or when unknown."""
    client = getattr(http_request, "client", None)
    host = getattr(client, "host", None)
    return host if isinstance(host, str) else None


def client_key(http_request: Any) -> str:
    """Who a per-client limit counts a call against: the verified token's subject, else the
    HTTP session, else the peer address; on stdio the one client of the process."""
    token = verified_token(http_request)
    subject = getattr(token, "subject", None)
    if subject:
        return f"sub:{subject}"
    session = session_id(http_request)
    if session:
        return f"session:{session}"
    peer = peer_address(http_request)
    if peer:
        return f"peer:{peer}"
    return "stdio" if http_request is None else "anonymous"
