"""Credentials for an upstream request, read from the environment at each call (or, for
`passthrough`, taken from the MCP caller's own request), with the values to redact.

A variable that is unset sends no credentials: the API answers 401, and its answer says so.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote

from .binding import Auth


@dataclass(frozen=True)
class Credentials:
    """What the request gets, and every secret value in it."""

    headers: tuple[tuple[str, str], ...] = ()
    query: str = ""  # `name=value`, encoded
    secrets: tuple[str, ...] = ()


NONE = Credentials()


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None for any other."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def credentials(
    auth: Auth | None, environ: Mapping[str, str], caller_authorization: str | None = None
) -> Credentials:
    """The credentials `auth` asks for. `caller_authorization`: the Authorization header of
    the MCP request (HTTP transport), forwarded by `passthrough`; None on stdio."""
    if auth is None:
        return NONE
    if auth.kind == "passthrough":
        token = bearer_token(caller_authorization)
        if token is None:
            return NONE
        return Credentials((("Authorization", f"Bearer {token}"),), secrets=(token,))
    if auth.kind == "basic":
        return _basic(environ.get(auth.env, ""), environ.get(auth.password_env, ""))
    value = environ.get(auth.env, "")
    return _from_variable(auth, value) if value else NONE


def _basic(user: str, password: str) -> Credentials:
    if not user and not password:
        return NONE
    pair = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
    return Credentials((("Authorization", f"Basic {pair}"),), secrets=(password, pair))


def _from_variable(auth: Auth, value: str) -> Credentials:
    if auth.kind == "bearer":
        return Credentials((("Authorization", f"Bearer {value}"),), secrets=(value,))
    if auth.kind == "header":
        return Credentials(((auth.name, value),), secrets=(value,))
    encoded = f"{quote(auth.name, safe='')}={quote(value, safe='')}"
    # The encoded form is a secret too: it is what appears in a URL quoted back.
    return Credentials(query=encoded, secrets=(value, quote(value, safe="")))
