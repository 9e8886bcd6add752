"""The misbehaving tool table, plus handlers that write to the process's stdout or block."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

from mcpgen.runtime.dispatch.dispatcher import ToolSpec
from tests.support.runtime import hostile_tools
from tests.support.runtime.hostile_tools import Args, _spec


def prints(args: Args) -> str:
    print("stray output from print")
    sys.stdout.write("stray output from sys.stdout\n")
    os.write(1, b"stray output on fd 1\n")
    return "printed"


async def prints_async(args: Args) -> str:
    return prints(args)


def raise_sync_cancel(args: Args) -> str:
    raise asyncio.CancelledError


def odd(args: Args) -> Any:
    values: dict[str, Any] = {
        "int": 7,
        "float": 1.5,
        "inf": float("inf"),
        "list": [1, "two", None],
        "generator": (i for i in range(3)),
        "empty-list": [],
        "tuple": (1, 2),
        "nested-secret": {"deep": [{"k": f"x{os.environ[hostile_tools.SECRET_ENV]}y"}]},
        "key-secret": {os.environ[hostile_tools.SECRET_ENV]: 1},
    }
    return values[args.what]


def structured(args: Args) -> dict[str, Any]:
    return {"n": 1}


STRUCTURED = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def block_sync(args: Args) -> str:
    time.sleep(args.seconds)
    return "woke"


TOOLS: tuple[ToolSpec[Any], ...] = (
    *hostile_tools.TOOLS,
    _spec("prints", prints),
    _spec("prints_async", prints_async),
    _spec("raise_sync_cancel", raise_sync_cancel),
    _spec("odd", odd),
    _spec("block_sync", block_sync),
    ToolSpec(
        {"name": "structured", "inputSchema": {"type": "object"}, "outputSchema": STRUCTURED},
        input_model=Args,
        handler=structured,
        handler_path="h/structured.py",
    ),
)
INFO = hostile_tools.INFO
