"""The tiny tool table plus the two tools the stdio tests need: one that naps (calls in flight
at once) and one whose result holds a lone surrogate (what `os.listdir` gives for a non-UTF-8
name); and a `tools/call` request in raw JSON-RPC."""

from __future__ import annotations

from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict

from mcpgen.runtime.dispatch.dispatcher import ToolSpec
from tests.support.runtime.tiny_tools import TOOLS

INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
NAP = 0.4


class NapInput(BaseModel):
    model_config = ConfigDict(extra="allow")


async def nap(args: NapInput) -> str:
    await anyio.sleep(NAP)
    return "rested"


def surrogate(args: NapInput) -> str:
    return "file-\udc80.txt"  # what os.listdir gives for a non-UTF-8 name


def _tool(name: str, handler: Any) -> ToolSpec[Any]:
    definition = {"name": name, "inputSchema": {"type": "object"}}
    return ToolSpec(definition, input_model=NapInput, handler=handler, handler_path="h.py")


SERVER_TOOLS = [*TOOLS, _tool("nap", nap), _tool("surrogate", surrogate)]


def call(request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
