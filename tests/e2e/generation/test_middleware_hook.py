"""The project's `middleware.py`: written once by `mcpgen generate`, never rewritten, and its
`around_call` wraps the calls of the real server process (the stdio fast path's included)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from mcpgen.generation import generate_project

REPO = Path(__file__).resolve().parents[3]
HOOK = '''"""Calls of get_alerts answered here; the others marked on their way out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp.types import CallToolResult, TextContent

from weather._generated import CallNext, CallResult, Context


async def around_call(
    ctx: Context, tool: str, arguments: Mapping[str, Any], call_next: CallNext
) -> CallResult:
    if tool == "get_alerts":
        text = f"hooked {tool} {arguments.get('state')} from {ctx.client_key}"
        return CallToolResult(content=[TextContent(type="text", text=text)])
    result = await call_next(arguments)
    assert isinstance(result, CallToolResult)
    return CallToolResult(
        content=[*result.content, TextContent(type="text", text="(through the hook)")],
        structured_content=result.structured_content,
        is_error=result.is_error,
    )
'''


@pytest.mark.anyio
async def test_the_hook_is_written_once_and_wraps_every_call(tmp_path: Path) -> None:
    project = tmp_path / "weather"
    shutil.copytree(REPO / "examples" / "weather", project)
    generate_project(project)
    hook = project / "src" / "weather" / "middleware.py"
    assert "return await call_next(arguments)" in hook.read_text(encoding="utf-8")
    hook.write_text(HOOK, encoding="utf-8")
    generate_project(project)
    assert hook.read_text(encoding="utf-8") == HOOK  # the user's own file, kept as written
    hook.unlink()
    generate_project(project)  # a deleted hook comes back as the stub
    assert "return await call_next(arguments)" in hook.read_text(encoding="utf-8")
    hook.write_text(HOOK, encoding="utf-8")

    env = {**os.environ, "PYTHONPATH": str(project / "src")}
    params = StdioServerParameters(command=sys.executable, args=["-m", "weather"], env=env)
    async with Client(params, mode="legacy") as client:
        alerts = await client.call_tool("get_alerts", {"state": "CA"})
        forecast = await client.call_tool("get_forecast", {"city": "Paris"})
    assert isinstance(alerts.content[0], TextContent)
    assert alerts.content[0].text == "hooked get_alerts CA from stdio"
    last = forecast.content[-1]
    assert isinstance(last, TextContent) and last.text == "(through the hook)"
