"""`python number_server.py [flags]`: one tool with bounded numbers and a free-form value,
whose handler answers what it was given (repr), for what the JSON parsers let through."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from pydantic import BaseModel, ConfigDict

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.dispatcher import Dispatcher, ToolSpec
from mcpgen.runtime.entry.serve import main


class MeasureInput(BaseModel):
    model_config = ConfigDict(extra="allow")
    x: float | None = None
    n: int | None = None


def measure(args: MeasureInput) -> str:
    return repr(args.model_dump())


MEASURE = {
    "name": "measure",
    "inputSchema": {
        "type": "object",
        "properties": {
            "x": {"type": "number", "maximum": 10},
            "n": {"type": "integer", "maximum": 10},
            "free": {},
        },
    },
}
TOOLS = (ToolSpec(MEASURE, input_model=MeasureInput, handler=measure, handler_path="h.py"),)
INFO = ServerInfo(name="numbers", version="0.1.0", script="numbers", description="Numbers.")

if __name__ == "__main__":
    main(INFO, Dispatcher(TOOLS), sys.argv[1:])
