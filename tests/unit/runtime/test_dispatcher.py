"""The dispatcher in process, through the SDK's in-memory client: verdicts, models, results."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent

from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import build_server
from tests.support.runtime.tiny_tools import INFO, TOOLS

ARABIC_INDIC_ONE = "\u0661"  # a digit to Python's `\d`, not to ECMA-262's


async def call(name: str, arguments: dict[str, Any]) -> CallToolResult:
    async with Client(build_server(INFO, Dispatcher(TOOLS))) as client:
        return await client.call_tool(name, arguments)


def text(result: CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, TextContent))


@pytest.mark.anyio
async def test_valid_arguments_reach_the_handler() -> None:
    result = await call("echo", {"text": "Émile", "times": 2})
    assert not result.is_error and text(result) == "ÉmileÉmile"


@pytest.mark.anyio
async def test_invalid_arguments_are_a_tool_error_naming_each_field() -> None:
    result = await call("echo", {"text": "émile", "times": 0, "item-count": "x", "extra": 1})
    assert result.is_error
    assert text(result).splitlines() == [
        "Invalid arguments for tool 'echo':",
        "- $: Additional properties are not allowed ('extra' was unexpected)",
        "- $.item-count: 'x' is not of type 'integer'",
        "- $.text: 'émile' does not match '^\\\\p{Lu}'",
        "- $.times: 0 is less than the minimum of 1",
    ]


@pytest.mark.anyio
async def test_unknown_tool_is_a_protocol_error() -> None:
    async with Client(build_server(INFO, Dispatcher(TOOLS))) as client:
        with pytest.raises(MCPError, match="Unknown tool: nope") as raised:
            await client.call_tool("nope", {})
    assert raised.value.code == INVALID_PARAMS


@pytest.mark.anyio
async def test_a_model_stricter_than_the_schema_does_not_refuse() -> None:
    # `format: date-time` asserts nothing in JSON Schema; the model's AwareDatetime would.
    accepted = await call("when", {"at": "next tuesday"})
    assert not accepted.is_error, text(accepted)
    assert accepted.structured_content is None and '"kind":"str"' in text(accepted)
    converted = await call("when", {"at": "2024-05-01T10:00:00Z"})
    assert '"kind":"datetime","year":2024' in text(converted)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("arguments", "valid"),
    [
        ({"12": "a", "ab": 1}, True),
        ({ARABIC_INDIC_ONE: "a"}, False),
        ({"Ωμέγα": 1}, True),
        ({"Ωμέγα": "x"}, False),
        ({"a-b": 1}, False),
    ],
)
async def test_pattern_properties_are_ecma_262(arguments: dict[str, Any], valid: bool) -> None:
    result = await call("tags", arguments)
    assert result.is_error is not valid, text(result)


@pytest.mark.anyio
async def test_published_definitions_are_the_table_entries_as_json() -> None:
    dispatcher = Dispatcher(TOOLS)
    assert dispatcher.published == [tool.definition for tool in TOOLS]
    async with Client(build_server(INFO, dispatcher)) as client:
        listed = (await client.list_tools()).tools
    assert [tool.name for tool in listed] == ["echo", "when", "tags"]


def test_a_plain_json_table_is_published_without_a_second_copy() -> None:
    published = Dispatcher(TOOLS).published
    assert all(p is tool.definition for p, tool in zip(published, TOOLS, strict=True))


def test_a_definition_that_is_not_plain_json_is_published_as_a_plain_copy() -> None:
    # A tuple, from a table written by hand: `tools/list` must still carry lists.
    definition = {**TOOLS[0].definition, "icons": ({"src": "a.png"},)}
    tool = replace(TOOLS[0], definition=definition)
    (published,) = Dispatcher([tool]).published
    assert type(published) is dict and published is not definition
    assert published == {**TOOLS[0].definition, "icons": [{"src": "a.png"}]}
