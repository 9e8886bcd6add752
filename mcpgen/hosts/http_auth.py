"""`mcpgen doctor`'s authentication check of a running HTTP server: with and without the token.

A server that answers without a token is open to whoever reaches it; one that refuses the
token the snippets send will fail in every host. Both are found by one `initialize` each.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Mapping

from mcpgen.hosts.doctor import Check

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "mcpgen-doctor", "version": "0"},
    },
}


def initialize_status(url: str, token: str | None, timeout: float) -> int | None:
    """The HTTP status of an `initialize` POST, or None when nothing answers."""
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        url, data=json.dumps(INITIALIZE).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)
    except (OSError, ValueError):
        return None


def auth_check(
    url: str, token_env: str | None, environ: Mapping[str, str], timeout: float = 5.0
) -> Check:
    """How the server at `url` treats a request without the token, and one with it."""
    without = initialize_status(url, None, timeout)
    if without is None:
        return Check("warn", f"authentication not checked: nothing answers at {url}")
    if token_env is None:
        if without == 200:
            return Check("ok", "the server needs no token (fine on 127.0.0.1 only)")
        return Check("warn", f"the server answers {without} without a token: pass --token-env")
    if without == 200:
        fix = f"start it with --auth-token-env {token_env}"
        return Check("fail", f"the server answers without a token: {fix}")
    return _with_token(url, token_env, environ.get(token_env), without, timeout)


def _with_token(url: str, token_env: str, token: str | None, without: int, timeout: float) -> Check:
    if not token:
        return Check("fail", f"{token_env} is unset here: the snippets would send no token")
    with_token = initialize_status(url, token, timeout)
    if with_token == 200:
        return Check("ok", f"without a token: {without}; with ${token_env}: 200")
    return Check("fail", f"the server refuses the token in ${token_env} ({with_token})")
