"""The result-size guard against a real generated server, with the real `mcp` client: text
cut at `--max-result-chars` (or the tool's `max_result_chars`) with a note, structured results
over the limit refused, alike on the fast path and the SDK's, over stdio and HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent

from tests.support.project_venv import free_port, http_server
from tests.support.toolbox_project import (
    render_toolbox,
    server_command,
    server_env,
    stdio_parameters,
)


@pytest.fixture(scope="module")
def src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render_toolbox(tmp_path_factory.mktemp("toolbox"))


def text(result: CallToolResult) -> str:
    return "".join(b.text for b in result.content if isinstance(b, TextContent))


def cut_note(limit: int, total: int, source: str) -> str:
    return (
        f"\n\n[truncated: the result has {total} characters, cut at the limit of {limit} "
        f"({source}); ask for less to see the rest]"
    )


async def _judged(client: Client, limit: int) -> list[CallToolResult]:
    """The calls every path must answer alike, checked; their results."""
    short = await client.call_tool("long_text", {"n": limit})
    assert short.is_error is False and text(short) == "y" * limit
    results = []
    for name in ("long_text", "long_text_ctx"):  # the fast path's, then always the SDK's
        result = await client.call_tool(name, {"n": limit + 1000})
        assert result.is_error is False
        assert text(result) == "y" * limit + cut_note(limit, limit + 1000, "--max-result-chars")
        results.append(result)
    capped = await client.call_tool("capped", {"n": 51})
    assert text(capped) == "y" * 50 + cut_note(50, 51, "max_result_chars")
    within = await client.call_tool("report", {"n": 10})
    assert within.is_error is False and within.structured_content == {"body": "r" * 10}
    over = await client.call_tool("report", {"n": limit})
    assert over.is_error is True and over.structured_content is None
    size = len('{"body":""}') + limit
    assert text(over) == (
        f"Tool 'report' returned a structured result of {size} characters (as JSON), over "
        f"the limit of {limit} (--max-result-chars); return less, or a resource link to the rest"
    )
    return [*results, capped, over]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_fast_path_and_sdk_path_bound_results_alike(src: Path, mode: str) -> None:
    answers = []
    for fast_paths in (True, False):
        flags = ("--max-result-chars", "300")
        async with Client(stdio_parameters(src, *flags, fast_paths=fast_paths), mode=mode) as c:
            answers.append(await _judged(c, 300))
    assert answers[0] == answers[1]


@pytest.mark.anyio
async def test_the_default_limit_is_100000_characters(src: Path) -> None:
    async with Client(stdio_parameters(src), mode="legacy") as client:
        fits = await client.call_tool("long_text", {"n": 100_000})
        assert text(fits) == "y" * 100_000
        cut = await client.call_tool("long_text", {"n": 250_000})
        expected = "y" * 100_000 + cut_note(100_000, 250_000, "--max-result-chars")
        assert cut.is_error is False and text(cut) == expected


@pytest.mark.anyio
async def test_zero_is_no_limit(src: Path) -> None:
    async with Client(stdio_parameters(src, "--max-result-chars", "0"), mode="legacy") as client:
        assert text(await client.call_tool("long_text", {"n": 150_000})) == "y" * 150_000
        # The tool's own limit still holds.
        assert text(await client.call_tool("capped", {"n": 60})).startswith("y" * 50 + "\n\n[")


@pytest.fixture(scope="module")
def stateless_url(src: Path) -> Iterator[str]:
    port = free_port()
    flags = ["--transport", "http", "--port", str(port), "--stateless", "--max-result-chars", "300"]
    with http_server(server_command(*flags), port, env=server_env(src)) as url:
        yield url


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_http_bounds_results_on_every_path(stateless_url: str, mode: str) -> None:
    async with Client(stateless_url, mode=mode) as client:
        await _judged(client, 300)
