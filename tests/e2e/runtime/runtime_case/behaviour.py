"""Run inside the generated project: every handler outcome through the real dispatcher."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client
from mcp.types import ImageContent, TextContent

from runtime_case._generated.server import build_server


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def call(name: str, arguments: dict[str, Any]) -> Any:
    async with Client(build_server()) as client:
        return await client.call_tool(name, arguments)


def text(result: Any) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, TextContent))


@pytest.mark.anyio
async def test_sync_dict_becomes_json_text() -> None:
    result = await call("echo_sync", {"text": "hi"})
    assert not result.is_error and text(result) == '{"echo":"hi"}'
    assert result.structured_content is None


@pytest.mark.anyio
async def test_async_string() -> None:
    assert text(await call("shout", {"text": "hi"})) == "HI"


@pytest.mark.anyio
async def test_model_becomes_structured_content_plus_text() -> None:
    result = await call("measure", {"size": 12})
    assert not result.is_error
    assert result.structured_content == {"size": 12, "label": "big"}  # unset `note` left out
    assert text(result) == '{"size":12,"label":"big"}'


@pytest.mark.anyio
async def test_dict_with_output_schema() -> None:
    assert (await call("measure_dict", {"size": 3})).structured_content == {"size": 3}


@pytest.mark.anyio
async def test_result_breaking_the_output_schema_is_a_tool_error() -> None:
    result = await call("bad_output", {})
    assert result.is_error
    assert "does not match its output schema" in text(result) and "size" in text(result)


@pytest.mark.anyio
async def test_content_blocks_pass_through() -> None:
    result = await call("content", {})
    assert not result.is_error
    assert isinstance(result.content[1], ImageContent)


@pytest.mark.anyio
async def test_call_tool_result_passes_through() -> None:
    result = await call("raw_result", {})
    assert result.is_error and text(result) == "as is"


@pytest.mark.anyio
async def test_exception_is_a_tool_error_and_the_server_keeps_serving() -> None:
    async with Client(build_server()) as client:
        failed = await client.call_tool("boom", {})
        assert failed.is_error and "failed: ValueError (error id " in text(failed)
        assert "the handler broke" not in text(failed)  # the message goes to the log only
        assert text(await client.call_tool("shout", {"text": "still here"})) == "STILL HERE"


@pytest.mark.anyio
@pytest.mark.parametrize("tool", ["slow", "slow_sync"])
async def test_timeout_is_a_tool_error(tool: str) -> None:
    result = await call(tool, {})
    assert result.is_error and "timed out after 0.3 s" in text(result)


@pytest.mark.anyio
async def test_stub_answers_not_implemented() -> None:
    result = await call("todo", {})
    assert result.is_error
    assert "is not implemented yet" in text(result) and "handlers/todo.py" in text(result)


@pytest.mark.anyio
async def test_ecma_pattern_and_wire_property_names() -> None:
    ok = await call("letters", {"name": "Émile", "class": "b", "item-count": 2})
    assert not ok.is_error, text(ok)
    assert text(ok) == "Émile/b/2"
    refused = await call("letters", {"name": "émile"})
    assert refused.is_error and "name" in text(refused)


@pytest.mark.anyio
async def test_every_problem_is_named() -> None:
    result = await call("letters", {"name": 5, "item-count": "x"})
    assert result.is_error
    assert "- $.name: 5 is not of type 'string'" in text(result)
    assert "- $.item-count: 'x' is not of type 'integer'" in text(result)
