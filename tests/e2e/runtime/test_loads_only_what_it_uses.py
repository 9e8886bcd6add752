"""A tools-only server on stdio, started as a host starts it (no flags), loads only what its
requests need: no catalog, no HTTP stack, no argparse, no SDK client, and no regex child
process machinery for schemas without patterns."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mcpgen.manifest import load_manifest
from mcpgen.render.plan import render_plan

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "weather" / "mcpgen.yaml"
# Run the package as its console script does, and write the loaded modules when it exits.
PROBE = """
import json, runpy, sys
out = sys.argv.pop(1)
try:
    runpy.run_module("weather", run_name="__main__", alter_sys=True)
finally:
    open(out, "w").write(json.dumps(sorted(sys.modules)))
"""
NEVER = (
    "argparse",
    "weather._runtime.catalog",
    "weather._runtime.http",
    "weather._runtime.validation.regex_process",
    "weather._runtime.validation.bounded_regex",
    "uvicorn.protocols.http.h11_impl",
    # The SDK's client and high-level server: their umbrella packages' `__init__` is deferred
    # (`core.sdk_packages`), and the low-level server needs neither.
    "mcp.client",
    "mcp.server.mcpserver",
    "pydantic_settings",
)


def _project(root: Path) -> Path:
    for planned in render_plan(load_manifest(EXAMPLE)).files:
        if planned.path.startswith("src/"):
            target = root / planned.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(planned.content, encoding="utf-8")
    return root / "src"


def _message(request_id: int, method: str, params: dict[str, object]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})


def test_a_tools_only_stdio_server_loads_no_catalog_http_or_argparse(tmp_path: Path) -> None:
    src = _project(tmp_path)
    initialize = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    }
    lines = [
        _message(0, "initialize", initialize),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        _message(1, "tools/list", {}),
        _message(2, "tools/call", {"name": "get_forecast", "arguments": {"city": "Paris"}}),
    ]
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(out)],
        input="\n".join(lines) + "\n",
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [0, 1, 2], done.stderr
    loaded = json.loads(out.read_text(encoding="utf-8"))
    assert "weather._runtime.dispatch.dispatcher" in loaded  # the call was dispatched
    assert [m for m in loaded if m.startswith(NEVER)] == []
