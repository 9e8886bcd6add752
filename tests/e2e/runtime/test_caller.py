"""Per-request credentials, per-client rate limits and the `around_call` hook, against real
server processes: concurrent HTTP clients (stateless and stateful) each see their own headers
and token, limits count per client on the fast paths and the SDK's path alike, and stdio
has no headers at all."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from tests.support.runtime.http_wire import HttpServer, free_port, serving

SERVER = Path(__file__).resolve().parents[2] / "support" / "runtime" / "caller_server.py"
SECRET = "sk-live-0123456789abcdef"
_IDS = itertools.count(1)  # concurrent calls in one session need distinct ids


@contextmanager
def caller_server(*args: str, env: dict[str, str] | None = None) -> Iterator[HttpServer]:
    port = free_port()
    command = [sys.executable, str(SERVER), "--transport", "http", "--port", str(port), *args]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    with serving(process, port) as server:
        yield server


def call(server: HttpServer, name: str, session: str | None = None, **headers: str) -> Any:
    message = {
        "jsonrpc": "2.0",
        "id": next(_IDS),
        "method": "tools/call",
        "params": {"name": name, "arguments": {}},
    }
    answer = server.post(message, session=session, **headers)
    assert answer.status == 200, (answer.status, answer.body)
    return answer.json()["result"]


def seen(result: dict[str, Any]) -> dict[str, Any]:
    assert result["isError"] is False, result
    decoded: dict[str, Any] = json.loads(result["content"][0]["text"])
    return decoded


def client_headers(n: int) -> dict[str, str]:
    return {"X-Tenant": f"tenant-{n}", "authorization": f"Bearer token-{n}"}


@pytest.fixture(scope="module")
def stateless() -> Iterator[HttpServer]:
    with caller_server("--stateless", "--json-response") as server:
        yield server


@pytest.fixture(scope="module")
def stateful() -> Iterator[HttpServer]:
    with caller_server("--json-response") as server:
        yield server


def test_concurrent_stateless_clients_each_see_their_own_headers_and_token(
    stateless: HttpServer,
) -> None:
    with ThreadPoolExecutor(12) as pool:
        results = list(
            pool.map(lambda n: seen(call(stateless, "whoami", **client_headers(n))), range(24))
        )
    for n, result in enumerate(results):
        assert result["tenant"] == result["tenant_lower"] == f"tenant-{n}"
        assert result["token"] == f"token-{n}"
        assert result["session"] is None


def test_concurrent_sessions_each_see_their_own_headers_and_token(stateful: HttpServer) -> None:
    sessions = []
    for n in range(6):
        opened = stateful.open_session(**client_headers(100 + n))
        sessions.append(opened.headers["mcp-session-id"])

    def one(n: int) -> dict[str, Any]:
        # The request's own headers count, not those that opened the session.
        return seen(call(stateful, "whoami", sessions[n % 6], **client_headers(n)))

    with ThreadPoolExecutor(12) as pool:
        results = list(pool.map(one, range(24)))
    for n, result in enumerate(results):
        assert (result["tenant"], result["token"]) == (f"tenant-{n}", f"token-{n}")
        assert result["session"] == sessions[n % 6]


@pytest.mark.parametrize("tool", ["limited", "limited_ctx"], ids=["fast-path", "sdk-path"])
def test_stateless_limits_count_per_peer_address(tool: str) -> None:
    with caller_server("--stateless", "--json-response") as server:
        first, second, third = (call(server, tool, **client_headers(n)) for n in range(3))
    assert not first["isError"] and not second["isError"]
    assert third["isError"] is True
    assert third["content"][0]["text"] == "rate limited; retry after 60 s"


@pytest.mark.parametrize("tool", ["limited", "limited_ctx"])
def test_stateful_limits_count_per_session(stateful: HttpServer, tool: str) -> None:
    one, other = (stateful.open_session().headers["mcp-session-id"] for _ in range(2))
    answers = [call(stateful, tool, one)["isError"] for _ in range(3)]
    assert answers == [False, False, True]
    assert call(stateful, tool, other)["isError"] is False


def test_the_hook_wraps_fast_path_and_sdk_calls(
    stateless: HttpServer, stateful: HttpServer
) -> None:
    message = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "hooked", "arguments": {"value": 3}},
    }
    fast = stateless.post(message).json()["result"]
    session = stateful.open_session().headers["mcp-session-id"]
    sdk = stateful.post(message, session=session).json()["result"]
    assert fast["content"][0]["text"] == "value=6 via peer"
    assert sdk["content"][0]["text"] == "value=6 via session"


def test_secret_headers_are_redacted_in_logs() -> None:
    with caller_server("--stateless", "--json-response") as server:
        result = seen(call(server, "whoami", **{"X-Api-Key": SECRET}))
        assert result["header_count"] > 3
        server.stop()
        assert server.process.stderr is not None
        log = server.process.stderr.read().decode()
    assert "api key in use: [redacted]" in log
    assert "'x-api-key': '[redacted]'" in log
    assert SECRET not in log


@pytest.mark.anyio
async def test_stdio_has_no_headers_and_counts_one_client() -> None:
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=dict(os.environ))
    async with Client(params, mode="legacy") as client:
        result = await client.call_tool("whoami", {"wait": 0})
        assert isinstance(result.content[0], TextContent)
        assert json.loads(result.content[0].text) == {
            "tenant": None,
            "tenant_lower": None,
            "token": None,
            "subject": None,
            "session": None,
            "header_count": 0,
        }
        errors = [(await client.call_tool("limited", {})).is_error for _ in range(3)]
        hooked = await client.call_tool("hooked", {"value": 5})
    assert errors == [False, False, True]
    assert isinstance(hooked.content[0], TextContent)
    assert hooked.content[0].text == "value=10 via stdio"


def test_oauth_callers_are_told_apart_by_subject(tmp_path: Path) -> None:
    jwt = pytest.importorskip("jwt")
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [{**public, "kid": "k1", "use": "sig", "alg": "RS256"}]}))
    issuer, resource = "https://issuer.example", "http://127.0.0.1/mcp"
    now = int(time.time())
    claims = {"iss": issuer, "aud": resource, "exp": now + 300, "iat": now}
    tokens = {
        name: jwt.encode({**claims, "sub": name}, key, algorithm="RS256", headers={"kid": "k1"})
        for name in ("alice", "bob")
    }
    args = ["--oauth-issuer", issuer, "--oauth-resource", resource]
    args += ["--oauth-jwks-file", str(jwks), "--stateless"]
    with caller_server(*args, "--json-response") as server:

        def whoami(name: str) -> dict[str, Any]:
            return seen(call(server, "whoami", authorization=f"Bearer {tokens[name]}"))

        with ThreadPoolExecutor(8) as pool:
            names = ["alice", "bob"] * 8
            results = list(pool.map(whoami, names))
        limited = [
            call(server, "limited", authorization=f"Bearer {tokens[name]}")["isError"]
            for name in ("alice", "alice", "alice", "bob")
        ]
    assert [(r["subject"], r["token"]) for r in results] == [(n, tokens[n]) for n in names]
    assert limited == [False, False, True, False]  # one peer address, two subjects
