"""The runtime's stdio transport end to end: the SDK's own client over real stdio pipes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.support.runtime import SERVERS
from tests.support.runtime.tiny_tools import TOOLS

ROOT = Path(__file__).resolve().parents[3]
SERVER = SERVERS / "tiny_server.py"
# Serves stdio like tiny_server.py, then reports the modules the session loaded.
MODULE_DUMP = f"""
import json, sys
sys.path.insert(0, {str(ROOT)!r})
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import main
from tests.support.runtime.tiny_tools import INFO, TOOLS
main(INFO, Dispatcher(TOOLS), [])
sys.stderr.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""
SDK_FLOOR = "import json, sys, mcp.server.lowlevel.server; print(json.dumps(sorted(sys.modules)))"
# What the runtime may add to the SDK's own imports on the stdio path.
# `concurrent.futures`: the bounded worker pool that runs sync handlers.
RUNTIME_IMPORTS = {
    "anyio",
    "argparse",
    "concurrent",
    "jsonschema_rs",
    "regress",
    "mcpgen",
    "tests",
}


def _params() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(SERVER)], cwd=str(ROOT))


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_sdk_client_lists_and_calls_32_in_flight(mode: Any) -> None:
    async with Client(_params(), mode=mode, read_timeout_seconds=30) as client:
        tools = (await client.list_tools()).tools
        assert [tool.name for tool in tools] == [spec.name for spec in TOOLS]
        texts: dict[int, str] = {}

        async def echo(i: int) -> None:
            result = await client.call_tool("echo", {"text": f"Call {i}"})
            assert not result.is_error
            texts[i] = result.content[0].text  # type: ignore[union-attr]

        async with anyio.create_task_group() as tasks:
            for i in range(32):
                tasks.start_soon(echo, i)
        assert texts == {i: f"Call {i}" for i in range(32)}


def test_the_server_exits_cleanly_when_stdin_closes() -> None:
    process = subprocess.Popen(
        [sys.executable, str(SERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    out, err = process.communicate((json.dumps(init) + "\n").encode(), timeout=60)
    assert process.returncode == 0, err.decode()
    assert json.loads(out)["result"]["serverInfo"]["name"] == "tiny"
    assert b"Traceback" not in err


def test_the_stdio_path_imports_nothing_beyond_the_sdk_and_the_runtime() -> None:
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "Hi"}},
        },
    ]
    started = time.monotonic()
    served = subprocess.run(
        [sys.executable, "-c", MODULE_DUMP],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert time.monotonic() - started < 60
    assert served.stdout.count("\n") == 3  # the three answers, nothing else on stdout
    dump = next(line for line in served.stderr.splitlines() if line.startswith("MODULES "))
    loaded = set(json.loads(dump.removeprefix("MODULES ")))
    floor = subprocess.run(
        [sys.executable, "-c", SDK_FLOOR], capture_output=True, text=True, check=True
    )
    added = {name.split(".")[0] for name in loaded - set(json.loads(floor.stdout))}
    assert added <= RUNTIME_IMPORTS, f"the stdio path imports more: {added - RUNTIME_IMPORTS}"
    # The reference validator is for wording the errors of invalid calls only.
    assert "jsonschema" not in loaded
