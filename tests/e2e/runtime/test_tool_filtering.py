"""Tool filtering against real generated servers, with the real `mcp` client: `--toolsets`,
`--tools` and `--read-only` over stdio (the opening, the fast path and the SDK's path) and over
HTTP, where X-MCP-Toolsets, X-MCP-Tools and X-MCP-Readonly narrow each request, concurrent
requests each by their own headers."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent

from tests.support.project_venv import free_port, http_server
from tests.support.runtime.stdio_session import INITIALIZE, INITIALIZED
from tests.support.toolbox_project import (
    render_toolbox,
    server_command,
    server_env,
    stdio_parameters,
)

ALL = ["get_issue", "create_issue", "list_repos", "delete_repo", "whoami"]


@pytest.fixture(scope="module")
def src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render_toolbox(tmp_path_factory.mktemp("toolbox"))


def text(result: CallToolResult) -> str:
    return "".join(b.text for b in result.content if isinstance(b, TextContent))


async def refused_as_unknown(client: Client, name: str) -> None:
    """Calling `name` is refused exactly as calling a tool that does not exist."""
    with pytest.raises(MCPError) as raised:
        await client.call_tool(name, {})
    assert (raised.value.code, raised.value.message) == (INVALID_PARAMS, f"Unknown tool: {name}")


# stdio


def test_the_opening_lists_only_the_tools_the_flags_show(src: Path) -> None:
    """The first tools/list, written with the handshake before the SDK has loaded, is the
    opening's answer: filtered too."""
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    process = subprocess.Popen(
        server_command("--toolsets", "issues", "--tools", "whoami"),
        env=server_env(src),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        lines = [INITIALIZE, INITIALIZED, listing]
        process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in lines))
        process.stdin.flush()
        answers = [json.loads(process.stdout.readline()) for _ in range(2)]
    finally:
        process.stdin.close()
        process.wait(timeout=30)
        process.stdout.close()
    tools = answers[1]["result"]["tools"]
    assert [t["name"] for t in tools] == ["get_issue", "create_issue", "whoami"]


@pytest.mark.anyio
@pytest.mark.parametrize("fast_paths", [True, False], ids=["fast-paths", "sdk-only"])
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_serves_only_the_shown_tools(src: Path, fast_paths: bool, mode: str) -> None:
    flags = ("--toolsets", "repos", "--tools", "whoami", "--read-only")
    async with Client(stdio_parameters(src, *flags, fast_paths=fast_paths), mode=mode) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["list_repos", "whoami"]
        assert text(await client.call_tool("list_repos", {})) == "list_repos ran"
        # A handler taking a context: always the SDK's path.
        assert text(await client.call_tool("whoami", {})) == "whoami ran"
        for hidden in ("delete_repo", "get_issue", "long_text"):
            await refused_as_unknown(client, hidden)
        await refused_as_unknown(client, "no_such_tool")


@pytest.mark.anyio
async def test_without_flags_every_tool_is_served(src: Path) -> None:
    async with Client(stdio_parameters(src), mode="legacy") as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert names[: len(ALL)] == ALL and len(names) == 9


# HTTP: the flags let through issues, repos and whoami; the headers narrow per request


HEADER_CASES: list[tuple[dict[str, str], list[str]]] = [
    ({}, ALL),
    ({"X-MCP-Toolsets": "repos"}, ["list_repos", "delete_repo"]),
    ({"X-MCP-Tools": "whoami, get_issue"}, ["get_issue", "whoami"]),
    ({"X-MCP-Tools": "long_text"}, []),  # hidden by the flags: never widened
    ({"X-MCP-Toolsets": "search", "X-MCP-Tools": "create_issue"}, ["create_issue", "list_repos"]),
    ({"X-MCP-Readonly": "true"}, ["get_issue", "list_repos", "whoami"]),
    ({"X-MCP-Toolsets": "issues", "X-MCP-Readonly": "true"}, ["get_issue"]),
]


@pytest.fixture(scope="module", params=["stateless", "stateful"])
def http_url(src: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    port = free_port()
    flags = ["--transport", "http", "--port", str(port), "--toolsets", "issues,repos"]
    flags += ["--tools", "whoami"]
    if request.param == "stateless":
        flags.append("--stateless")
    with http_server(server_command(*flags), port, env=server_env(src)) as url:
        yield url


async def _session_sees(url: str, mode: str, headers: dict[str, str], expected: list[str]) -> None:
    """One client with `headers` on every request: it lists `expected`, calls each of them,
    and every other tool is unknown to it."""
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            assert [t.name for t in (await client.list_tools()).tools] == expected, headers
            for name in expected:
                assert text(await client.call_tool(name, {})) == f"{name} ran"
            for name in [*(n for n in ALL if n not in expected), "long_text"]:
                await refused_as_unknown(client, name)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_http_headers_narrow_each_request(http_url: str, mode: str) -> None:
    # legacy, stateless: the fast path for what it takes; auto: the 2026 era, the SDK's path.
    for headers, expected in HEADER_CASES:
        await _session_sees(http_url, mode, headers, expected)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_concurrent_requests_each_get_their_own_narrowing(http_url: str, mode: str) -> None:
    sessions: list[Any] = [
        _session_sees(http_url, mode, headers, expected) for headers, expected in HEADER_CASES * 3
    ]
    await asyncio.gather(*sessions)
