"""A tool table of `LazyTool`s: handler modules are imported on a tool's first call, and one
that fails to import is that call's tool error, never the server's end."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel

from mcpgen.runtime.core.tool_table import LazyTool, ToolCode
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import build_server
from tests.support.runtime.tiny_tools import INFO

DEFINITION = {"name": "shout", "inputSchema": {"type": "object", "properties": {}}}
HANDLER = """
from pydantic import BaseModel


class ShoutInput(BaseModel):
    pass


def shout(args: ShoutInput) -> str:
    return "HEY"
"""


@pytest.fixture
def handler_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, uniquely named handler module on sys.path, not imported yet."""
    name = f"lazy_handler_{tmp_path.name.replace('-', '_')}"
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path / f"{name}.py"


def lazy_tool(module: Path) -> LazyTool:
    def load() -> ToolCode:
        imported: Any = importlib.import_module(module.stem)
        input_model: type[BaseModel] = imported.ShoutInput
        return ToolCode(input_model, imported.shout, None)

    return LazyTool(DEFINITION, load=load, handler_path=f"handlers/{module.name}")


def text(result: CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, TextContent))


@pytest.mark.anyio
async def test_the_handler_module_is_imported_on_the_first_call(handler_module: Path) -> None:
    handler_module.write_text(HANDLER, encoding="utf-8")
    dispatcher = Dispatcher([lazy_tool(handler_module)])
    async with Client(build_server(INFO, dispatcher)) as client:
        listed = await client.list_tools()
        assert [tool.name for tool in listed.tools] == ["shout"]
        assert handler_module.stem not in sys.modules
        result = await client.call_tool("shout", {})
    assert not result.is_error and text(result) == "HEY"
    assert handler_module.stem in sys.modules


@pytest.mark.anyio
async def test_a_handler_that_fails_to_import_is_a_tool_error_then_retried(
    handler_module: Path,
) -> None:
    handler_module.write_text("import no_such_module_anywhere\n" + HANDLER, encoding="utf-8")
    dispatcher = Dispatcher([lazy_tool(handler_module)])
    async with Client(build_server(INFO, dispatcher)) as client:
        failed = await client.call_tool("shout", {})
        assert failed.is_error
        assert text(failed).startswith("Tool 'shout' failed: ModuleNotFoundError")
        assert text(failed).endswith(f"importing its handler handlers/{handler_module.name}")
        # The server keeps serving, and the next call imports the fixed module.
        handler_module.write_text(HANDLER, encoding="utf-8")
        importlib.invalidate_caches()
        fixed = await client.call_tool("shout", {})
    assert not fixed.is_error and text(fixed) == "HEY"


@pytest.mark.anyio
async def test_a_handler_module_that_exits_at_import_does_not_end_the_server(
    handler_module: Path,
) -> None:
    handler_module.write_text("raise SystemExit(3)\n", encoding="utf-8")
    dispatcher = Dispatcher([lazy_tool(handler_module)])
    async with Client(build_server(INFO, dispatcher)) as client:
        result = await client.call_tool("shout", {})
        assert result.is_error and "SystemExit" in text(result)
        listed = await client.list_tools()
    assert [tool.name for tool in listed.tools] == ["shout"]
