"""Tools whose patterns backtrack exponentially in regress, and one that answers at once."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.dispatcher import ToolSpec

# RE2 runs this one in linear time.
NESTED = "^(a+)+$"
# A back-reference: only regress runs it, in the child process, under the verdict deadline.
NESTED_BACKREFERENCE = "^(a+)+\\1$"
RUNAWAY = "a" * 30 + "!"
# Another back-reference, quick on any text: a victim's tool beside the attacked one.
SAME_ENDS = "^(\\w)\\w*\\1$"


class Args(BaseModel):
    model_config = ConfigDict(extra="allow")


def length(args: Args) -> int:
    return len(str((args.model_extra or {}).get("text", "")))


def _text_tool(name: str, pattern: str) -> ToolSpec[Any]:
    schema = {
        "type": "object",
        "properties": {"text": {"type": "string", "pattern": pattern}},
        "required": ["text"],
    }
    definition = {"name": name, "inputSchema": schema}
    return ToolSpec(definition, input_model=Args, handler=length, handler_path="")


def ping(args: Args) -> str:
    return "pong"


INFO = ServerInfo(name="redos", version="0.1.0", script="redos-server", description="Patterns")
TOOLS: list[ToolSpec[Any]] = [
    _text_tool("nested", NESTED),
    _text_tool("nested_backreference", NESTED_BACKREFERENCE),
    _text_tool("same_ends", SAME_ENDS),
    # The same runaway, a second tool to attack.
    _text_tool("nested_backreference_too", NESTED_BACKREFERENCE),
    ToolSpec(
        {"name": "ping", "inputSchema": {"type": "object"}},
        input_model=Args,
        handler=ping,
        handler_path="",
    ),
]
