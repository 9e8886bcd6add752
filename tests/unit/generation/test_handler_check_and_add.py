"""`mcpgen check`'s static handler check, and `mcpgen add tool`'s text-preserving edit."""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from mcpgen.errors import McpgenError
from mcpgen.generation.handler_check import check_handler_source
from mcpgen.manifest.append import append_tool
from tests.support.in_memory import manifest_of, tool

TOOL = manifest_of(tool("get_data")).tools[0]


@pytest.mark.parametrize(
    "source",
    [
        "async def get_data(args: GetDataInput) -> str: ...",
        "def get_data(args: models.GetDataInput, *, extra: int = 1): ...",
        "def get_data(args: 'GetDataInput'): ...",
        "async def get_data(args: GetDataInput, ctx: Context) -> str: ...",
        "def get_data(args: GetDataInput, ctx): ...",
    ],
)
def test_handlers_the_dispatcher_can_call(source: str) -> None:
    assert check_handler_source(source, TOOL) is None


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def other(args: GetDataInput): ...", "no function `get_data`"),
        ("def get_data(): ...", "takes no argument"),
        ("def get_data(args: dict): ...", "is annotated `dict`"),
        ("def get_data(args): ...", "has no type annotation"),
        ("def get_data(a: GetDataInput, b: int): ...", "second argument of `get_data`"),
        ("def get_data(a: GetDataInput, b: Context, c: int): ...", "one argument, or two"),
        ("def get_data(:", "syntax error"),
    ],
)
def test_handlers_the_dispatcher_cannot_call(source: str, message: str) -> None:
    problem = check_handler_source(source, TOOL)
    assert problem is not None and message in problem


MANIFEST = """\
# my comment
name: demo   # trailing comment
tools:
    -   name: a
        input_schema:
            type: object
# about env
env:
  X: {description: 'quoted'}
"""


def test_append_keeps_every_byte_and_follows_the_indentation() -> None:
    text = append_tool(MANIFEST, "ping", "Answer")
    lines = text.splitlines(keepends=True)
    assert "".join(lines[:6]) == "".join(MANIFEST.splitlines(keepends=True)[:6])
    assert text.endswith("# about env\nenv:\n  X: {description: 'quoted'}\n")
    assert "    -   name: ping\n        description: Answer\n        input_schema:\n" in text
    assert [t["name"] for t in YAML(typ="safe").load(text)["tools"]] == ["a", "ping"]


def test_append_to_missing_or_flow_tools() -> None:
    for source in ("name: demo\n", "name: demo\ntools: []\n"):
        data = YAML(typ="safe").load(append_tool(source, "ping"))
        assert [t["name"] for t in data["tools"]] == ["ping"]


def test_duplicate_tool_is_refused() -> None:
    with pytest.raises(McpgenError, match="already has a tool named 'a'"):
        append_tool(MANIFEST, "a")
