"""The result-size guard: text cut at the limit with a note, structured results refused."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, ImageContent, TextContent
from pydantic import BaseModel

from mcpgen.runtime.core.result_size import bounded
from mcpgen.runtime.dispatch.dispatcher import CallPolicy, Dispatcher, ToolSpec
from mcpgen.runtime.entry.serve import build_server
from tests.support.runtime.tiny_tools import INFO


def text_result(*texts: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=t) for t in texts])


def texts(result: CallToolResult) -> list[str]:
    return [b.text for b in result.content if isinstance(b, TextContent)]


def test_a_result_within_the_limit_is_the_same_object() -> None:
    result = text_result("x" * 10)
    assert bounded(result, 10, tool="t", own_limit=False) is result
    assert bounded(result, 0, tool="t", own_limit=False) is result  # 0: no limit


def test_longer_text_is_cut_and_ends_with_a_note_naming_the_limit() -> None:
    cut = bounded(text_result("abcdefghij"), 4, tool="t", own_limit=False)
    assert cut.is_error is False
    (only,) = texts(cut)
    assert only.startswith("abcd\n\n[truncated: ")
    assert "10 characters" in only and "limit of 4 (--max-result-chars)" in only
    own = bounded(text_result("abcdefghij"), 4, tool="t", own_limit=True)
    assert "limit of 4 (max_result_chars)" in texts(own)[0]


def test_the_limit_counts_every_text_block_and_keeps_other_blocks() -> None:
    image = ImageContent(type="image", data="AAAA", mime_type="image/png")
    result = CallToolResult(
        content=[
            TextContent(type="text", text="abc"),
            image,
            TextContent(type="text", text="defgh"),
            TextContent(type="text", text="ijk"),
        ]
    )
    cut = bounded(result, 5, tool="t", own_limit=False)
    assert cut.content[1] == image and len(cut.content) == 3
    first, second = texts(cut)
    assert first == "abc" and second.startswith("de\n\n[truncated: the result has 11 characters")


def test_characters_are_code_points() -> None:
    assert bounded(text_result("é" * 5), 5, tool="t", own_limit=False).content[0].text == "é" * 5  # type: ignore[union-attr]


def test_a_structured_result_over_the_limit_is_an_error_naming_it() -> None:
    data = {"rows": ["x" * 20]}
    result = CallToolResult(content=[TextContent(type="text", text="{}")], structured_content=data)
    refused = bounded(result, 10, tool="report", own_limit=True)
    assert refused.is_error is True and refused.structured_content is None
    message = texts(refused)[0]
    assert "'report'" in message and "33 characters" in message
    assert "limit of 10 (max_result_chars)" in message
    assert bounded(result, 33, tool="report", own_limit=True) is result


def test_an_error_result_is_cut_not_refused() -> None:
    error = CallToolResult(content=[TextContent(type="text", text="e" * 50)], is_error=True)
    cut = bounded(error, 10, tool="t", own_limit=False)
    assert cut.is_error is True and texts(cut)[0].startswith("e" * 10 + "\n\n[truncated")


# Through the dispatcher, as every path sends a result


class Empty(BaseModel):
    pass


class Report(BaseModel):
    body: str


def _spec(name: str, returns: Any, *, limit: int | None = None, output: bool = False) -> Any:
    definition: dict[str, Any] = {"name": name, "inputSchema": {"type": "object"}}
    if output:
        definition["outputSchema"] = {
            "type": "object",
            "properties": {"body": {"type": "string"}},
            "required": ["body"],
        }
    return ToolSpec(
        definition,
        Empty,
        lambda _: returns,
        handler_path="x.py",
        output_model=Report if output else None,
        max_result_chars=limit,
    )


SPECS = [
    _spec("long", "y" * 300),
    _spec("own", "y" * 300, limit=50),
    _spec("unlimited", "y" * 300, limit=0),
    _spec("structured", {"body": "y" * 300}, output=True),
]


@pytest.mark.anyio
async def test_the_dispatcher_applies_the_server_and_the_tools_limit() -> None:
    served = Dispatcher(SPECS, CallPolicy(max_result_chars=100))
    async with Client(build_server(INFO, served)) as client:
        long = await client.call_tool("long", {})
        assert long.is_error is False and texts(long)[0].startswith("y" * 100 + "\n\n[")
        assert "(--max-result-chars)" in texts(long)[0]
        own = await client.call_tool("own", {})
        assert (
            texts(own)[0].startswith("y" * 50 + "\n\n[") and "(max_result_chars)" in texts(own)[0]
        )
        assert texts(await client.call_tool("unlimited", {})) == ["y" * 300]
        structured = await client.call_tool("structured", {})
        assert structured.is_error is True and "limit of 100" in texts(structured)[0]
