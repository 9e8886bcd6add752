"""The stateless HTTP fast path answers exactly what the SDK's stateless endpoint answers.

The same requests go to two apps built from the same dispatcher, one with the fast path
and one without, each behind the `Gate` and with its lifespan running: status, the headers
a client reads and the body must be equal. Requests the fast path must leave to the SDK
(foreign Host or Origin, wrong headers, other methods, 2026-era versions) are compared too,
and are checked to have reached the SDK.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import build_server
from mcpgen.runtime.http import fast_path as http_fast_path
from mcpgen.runtime.http.options import HttpOptions
from mcpgen.runtime.http.transport import build_app
from tests.differential.test_stdio_fast_path import TOOLS
from tests.support.runtime.tiny_tools import INFO

pytestmark = pytest.mark.anyio

URL = "http://127.0.0.1:8000/mcp"
BASE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
# Headers that vary from one answer to the next, on either path.
VARYING = ("date", "server")


def _call(name: str, arguments: Any = None, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, **extra}
    if arguments is not None:
        params["arguments"] = arguments
    return {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}


REQUESTS: dict[str, tuple[dict[str, str], Any]] = {
    "call": ({}, _call("nap", {"seconds": 0})),
    "call without arguments": ({}, _call("nap")),
    "call of a raising handler": ({}, _call("raises", {})),
    "structured result": ({}, _call("structured", {"a": 1})),
    "result breaking its schema": ({}, _call("bad", {})),
    "unknown tool": ({}, _call("nope", {})),
    "invalid arguments": ({}, _call("nap", {"seconds": "x"})),
    "handler with a context": ({}, _call("ctx", {})),
    "call with _meta": ({}, _call("nap", {}, _meta={"progressToken": 1})),
    "tools/list": ({}, {"jsonrpc": "2.0", "id": "l", "method": "tools/list"}),
    "ping": ({}, {"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    "ping with params": ({}, {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": 1}}),
    "notification": ({}, {"jsonrpc": "2.0", "method": "notifications/initialized"}),
    "batch": ({}, [{"jsonrpc": "2.0", "id": 1, "method": "ping"}]),
    "not JSON": ({}, b"{nope"),
    "not JSON-RPC": ({}, {"id": 1, "method": "ping"}),
    "no protocol version": ({"MCP-Protocol-Version": ""}, _call("nap", {})),
    "2025-03-26": ({"MCP-Protocol-Version": "2025-03-26"}, _call("structured", {})),
    "2025-06-18": ({"MCP-Protocol-Version": "2025-06-18"}, _call("structured", {})),
    "2026-era version": ({"MCP-Protocol-Version": "2026-07-28"}, _call("nap", {})),
    "unknown version": ({"MCP-Protocol-Version": "1999-01-01"}, _call("nap", {})),
    "foreign Host": ({"Host": "evil.example"}, _call("nap", {})),
    "foreign Origin": ({"Origin": "http://evil.example"}, _call("nap", {})),
    "no SSE in Accept": ({"Accept": "application/json"}, _call("nap", {})),
    "form content type": ({"Content-Type": "text/plain"}, _call("nap", {})),
    "a session id": ({"Mcp-Session-Id": "abc"}, _call("nap", {})),
}


@asynccontextmanager
async def _client(*, fast: bool, json_response: bool) -> AsyncIterator[httpx.AsyncClient]:
    options = HttpOptions(stateless=True, json_response=json_response)
    dispatcher = Dispatcher(TOOLS)
    server = build_server(INFO, dispatcher)
    gate = build_app(server, options, {}, {}, dispatcher=dispatcher if fast else None)
    starlette = gate.app
    installed = [r for r in starlette.routes if isinstance(r.app, http_fast_path.StatelessFastPath)]
    assert len(installed) == (1 if fast else 0)
    async with starlette.router.lifespan_context(starlette):
        transport = httpx.ASGITransport(app=gate)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as c:
            yield c


async def _send(client: httpx.AsyncClient, headers: dict[str, str], body: Any) -> tuple[Any, ...]:
    sent = {**BASE, "MCP-Protocol-Version": "2025-11-25", **headers}
    sent = {k: v for k, v in sent.items() if v}
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = await client.post(URL, content=content, headers=sent)
    # An error's id is random on either path.
    content = re.sub(rb"error id [0-9a-f]+", b"error id ID", response.content)
    read = sorted((k, v) for k, v in response.headers.multi_items() if k not in VARYING)
    if content != response.content:  # same length: the ids have one length
        assert len(content) - len(response.content) == content.count(b"error id ID") * -10
    return response.status_code, read, content


@pytest.fixture(params=[False, True], ids=["sse", "json"])
def json_response(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


async def test_answers_equal_the_sdk_s(json_response: bool) -> None:
    answers: dict[str, list[tuple[Any, ...]]] = {}
    for fast in (False, True):
        async with _client(fast=fast, json_response=json_response) as client:
            for name, (headers, body) in REQUESTS.items():
                answers.setdefault(name, []).append(await _send(client, headers, body))
    for name, (sdk, ours) in answers.items():
        assert ours == sdk, name


async def test_the_plain_requests_skip_the_sdk(json_response: bool) -> None:
    """The fast path really answers them: the SDK's stateless entry is never reached."""
    entered: list[object] = []
    async with _client(fast=True, json_response=json_response) as client:
        manager = StreamableHTTPSessionManager

        original = manager._handle_stateless_request

        async def spy(self: Any, *args: Any) -> None:
            entered.append(args)
            await original(self, *args)

        manager._handle_stateless_request = spy  # type: ignore[method-assign]
        try:
            for name in ("call", "tools/list", "ping", "structured result", "2025-03-26"):
                status, _, _ = await _send(client, *REQUESTS[name])
                assert status == 200
            assert entered == []
            await _send(client, *REQUESTS["handler with a context"])
            assert len(entered) == 1
        finally:
            manager._handle_stateless_request = original  # type: ignore[method-assign]
