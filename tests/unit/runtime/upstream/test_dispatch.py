"""A bound tool served by the dispatcher: its handler built from the binding, the arguments
reaching the API as sent, the answer checked against the output schema and sent as text too."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from mcp.types import CallToolResult, TextContent

from mcpgen.runtime.core.tool_table import LazyTool, ToolCode
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.upstream import handler
from mcpgen.runtime.upstream.client import new_client

SOURCE = {"key": "demo", "base_url": "https://api.test", "base_url_env": "", "auth": None}
BINDING = {
    "api": "demo",
    "method": "GET",
    "path": "/things/{id}",
    "parameters": [{"name": "id", "in": "path", "argument": "id", "required": True}],
}
OUTPUT = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
DEFINITION = {
    "name": "get_thing",
    "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
    "outputSchema": OUTPUT,
}


def dispatcher(
    answer: Any, sent: list[httpx2.Request], monkeypatch: pytest.MonkeyPatch
) -> Dispatcher:
    def reply(request: httpx2.Request) -> httpx2.Response:
        sent.append(request)
        return httpx2.Response(200, json=answer)

    client = new_client(httpx2.MockTransport(reply))

    async def shared() -> httpx2.AsyncClient:
        return client

    monkeypatch.setattr(handler, "shared_client", shared)

    def load() -> ToolCode:
        bound = handler.tool_handler("get_thing", SOURCE, BINDING, structured=True)
        return ToolCode(handler.Arguments, bound)

    return Dispatcher([LazyTool(DEFINITION, load=load, handler_path="apis.py")])


@pytest.mark.anyio
async def test_a_bound_tools_answer_is_its_structured_result_and_its_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[httpx2.Request] = []
    served = dispatcher({"id": "a/b", "extra": [1]}, sent, monkeypatch)
    assert served.context_free("get_thing")  # no Context: the transports' fast paths serve it
    result = await served.call("get_thing", {"id": "a/b"})
    assert isinstance(result, CallToolResult) and not result.is_error
    assert result.structured_content == {"id": "a/b", "extra": [1]}
    (block,) = result.content
    assert isinstance(block, TextContent) and json.loads(block.text) == result.structured_content
    assert sent[0].url.raw_path == b"/things/a%2Fb"


@pytest.mark.anyio
async def test_an_answer_that_breaks_the_output_schema_is_an_error_when_strict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    served = dispatcher({"id": 7}, [], monkeypatch)
    result = await served.call("get_thing", {"id": "x"})
    assert (
        isinstance(result, CallToolResult)
        and result.is_error
        and "does not match its output schema" in str(result.content[0])
    )
