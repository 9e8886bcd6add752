"""Tool filtering: which tools the flags and a request's headers show, and the dispatcher
serving only those (in process, through the SDK's in-memory client)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from pydantic import BaseModel

from mcpgen.runtime.core.tool_filter import (
    ToolFilter,
    from_args,
    from_flags,
    from_headers,
    from_request,
    narrowed,
    served,
    visible,
)
from mcpgen.runtime.core.tool_table import LazyTool, ToolCode
from mcpgen.runtime.dispatch.dispatcher import CallPolicy, Dispatcher, ToolSpec
from mcpgen.runtime.entry.command_line import defaults, parse_args
from mcpgen.runtime.entry.serve import build_server
from mcpgen.runtime.stdio.opening import Opening
from tests.support.runtime.tiny_tools import INFO


@dataclass(frozen=True)
class Row:
    """A tool table row as the filter reads it."""

    name: str
    tags: tuple[str, ...] = ()
    read_only: bool = False
    renamed_from: tuple[str, ...] = ()

    @property
    def definition(self) -> Mapping[str, Any]:
        annotations = {"readOnlyHint": True} if self.read_only else {"readOnlyHint": False}
        return {"name": self.name, "annotations": annotations}


ROWS = (
    Row("get_issue", ("issues",), read_only=True),
    Row("create_issue", ("issues",)),
    Row("list_repos", ("repos", "search"), read_only=True, renamed_from=("repos",)),
    Row("delete_repo", ("repos",)),
    Row("whoami", read_only=True),
)


def shown(chosen: ToolFilter | None, narrowing: ToolFilter | None = None) -> list[str]:
    rows = visible(ROWS, chosen)
    return [r.name for r in rows if narrowing is None or narrowing.admits(r)]


def test_no_flag_shows_every_tool_as_the_same_table() -> None:
    assert from_flags(None, None, False) is None
    assert from_flags("", " , ", False) is None  # names nothing: not asked for
    assert visible(ROWS, None) is ROWS


def test_toolsets_and_tools_select_their_union() -> None:
    assert shown(from_flags("issues", None, False)) == ["get_issue", "create_issue"]
    assert shown(from_flags("search", "whoami", False)) == ["list_repos", "whoami"]
    assert shown(from_flags(None, "whoami, delete_repo", False)) == ["delete_repo", "whoami"]


def test_read_only_narrows_the_selection() -> None:
    assert shown(from_flags(None, None, True)) == ["get_issue", "list_repos", "whoami"]
    assert shown(from_flags("issues,repos", None, True)) == ["get_issue", "list_repos"]


def test_a_former_name_selects_the_renamed_tool() -> None:
    assert shown(from_flags(None, "repos", False)) == ["list_repos"]


def test_headers_narrow_and_never_widen() -> None:
    server = from_flags("issues", None, False)
    assert shown(server, from_headers([(b"x-mcp-tools", b"get_issue")])) == ["get_issue"]
    # Naming only tools the flags hide: nothing at all, not the flags' set.
    assert shown(server, from_headers([(b"x-mcp-tools", b"delete_repo")])) == []
    assert shown(server, from_headers([(b"x-mcp-toolsets", b"repos")])) == []
    assert shown(server, from_headers([(b"x-mcp-readonly", b"true")])) == ["get_issue"]


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([], None),
        ([(b"x-mcp-readonly", b"false")], None),
        ([(b"x-mcp-readonly", b"TRUE")], ToolFilter(read_only=True)),
        ([(b"x-mcp-tools", b"")], None),
        ([(b"content-type", b"application/json")], None),
        (
            [(b"x-mcp-toolsets", b"a, b"), (b"x-mcp-toolsets", b"c")],
            ToolFilter(toolsets=frozenset({"a", "b", "c"})),
        ),
        ([(b"x-mcp-tools", b"x,y")], ToolFilter(tools=frozenset({"x", "y"}))),
    ],
)
def test_headers_read(headers: list[tuple[bytes, bytes]], expected: ToolFilter | None) -> None:
    assert from_headers(headers) == expected


def test_a_request_without_headers_narrows_nothing() -> None:
    assert from_request(None) is None


def test_unmatched_names_are_reported() -> None:
    chosen = from_flags("issues,isues", "whoami,who", False)
    assert chosen is not None
    assert chosen.unmatched(ROWS) == ["toolset 'isues'", "tool 'who'"]


def test_the_command_line_reads_the_flags() -> None:
    assert from_args(defaults()) is None
    args = parse_args(INFO, ["--toolsets", "a,b", "--tools", "x", "--read-only"])
    assert from_args(args) == ToolFilter(frozenset({"a", "b"}), frozenset({"x"}), True)
    assert parse_args(INFO, ["--max-result-chars", "500"]).max_result_chars == 500
    assert defaults().max_result_chars == 100_000


# The dispatcher, serving a filtered table


class Empty(BaseModel):
    pass


def _spec(name: str, tags: tuple[str, ...] = (), read_only: bool = False) -> ToolSpec[Any]:
    definition = {
        "name": name,
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": read_only},
    }
    return ToolSpec(definition, Empty, lambda _: name, handler_path="x.py", tags=tags)


SPECS = [_spec("read", ("a",), read_only=True), _spec("write", ("a",)), _spec("other", ("b",))]


def dispatcher(chosen: ToolFilter | None) -> Dispatcher:
    return Dispatcher(SPECS, CallPolicy(tool_filter=chosen))


def names(published: list[Any]) -> list[str]:
    return [d["name"] for d in published]


@pytest.mark.anyio
async def test_hidden_tools_are_unlisted_and_unknown() -> None:
    served = dispatcher(from_flags("a", None, False))
    async with Client(build_server(INFO, served)) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["read", "write"]
        assert (await client.call_tool("write", {})).is_error is False
        with pytest.raises(MCPError, match="Unknown tool: other") as raised:
            await client.call_tool("other", {})
    assert raised.value.code == INVALID_PARAMS


def test_a_requests_narrowing_applies_within_it_only() -> None:
    served = dispatcher(from_flags("a", None, False))
    assert names(served.published) == ["read", "write"]
    with narrowed(ToolFilter(read_only=True)):
        assert names(served.published) == ["read"]
        assert not served.context_free("write") and served.context_free("read")
    with narrowed(ToolFilter(tools=frozenset({"other"}))):
        assert served.published == []
    assert names(served.published) == ["read", "write"]
    unfiltered = dispatcher(None)
    assert unfiltered.published is unfiltered.published  # the table itself, not a copy


def test_flags_naming_nothing_served_are_warned_about(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING"):
        assert [r.name for r in served(ROWS, from_flags("issues,isues", None, False))] == [
            "get_issue",
            "create_issue",
        ]
    assert caplog.messages == ["--toolsets/--tools: no toolset 'isues' in this server"]


def test_the_http_gate_judges_the_scopes_of_shown_tools_only() -> None:
    # A hidden tool's call goes on to be refused as unknown, not as a missing scope.
    assert set(dispatcher(from_flags("a", None, False)).tool_scopes) == {"read", "write"}
    assert set(dispatcher(None).tool_scopes) == {"read", "write", "other"}


def test_the_opening_lists_the_shown_tools_only() -> None:
    """The stdio opening answers tools/list before the SDK loads: from the shown rows."""
    rows = [_lazy("read", ("a",)), _lazy("other", ("b",))]
    opening = Opening(INFO, served(rows, from_flags("a", None, False)), 1 << 20)
    try:
        handshake = {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        }
        lines = [
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": handshake},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        ]
        answers = [opening._answer(json.dumps(line).encode()) for line in lines]
    finally:
        opening.close()
    assert answers[2] is not None
    assert json.loads(answers[2])["result"]["tools"] == [_lazy("read", ()).definition]


def _lazy(name: str, tags: tuple[str, ...]) -> LazyTool:
    def load() -> ToolCode:
        raise AssertionError("not loaded to list it")

    return LazyTool({"name": name, "inputSchema": {"type": "object"}}, load, "x.py", tags=tags)
