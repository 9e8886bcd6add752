"""`doctor` against real stdio servers: a working one, a broken command, one that exits."""

from __future__ import annotations

import socket
import sys
import time
from pathlib import Path

import pytest

from mcpgen.hosts import get_host
from mcpgen.hosts.doctor import diagnose, http_check, port_in_use, probe_stdio
from mcpgen.hosts.launch import Launch, MachineFacts
from mcpgen.manifest.model import Manifest
from tests.support.hosts import SECRET_VALUE

SERVER = """
import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.types import ListToolsResult, Tool

async def list_tools(ctx, params):
    return ListToolsResult(tools=[Tool(name="get_forecast", input_schema={"type": "object"})])

server = Server("weather", version="0.1.0", on_list_tools=list_tools)

async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""


@pytest.fixture
def server_script(tmp_path: Path) -> Path:
    path = tmp_path / "server.py"
    path.write_text(SERVER, encoding="utf-8")
    return path


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


def test_probe_lists_the_tools_of_a_real_server(server_script: Path) -> None:
    probe = probe_stdio(Launch(sys.executable, (str(server_script),)), _env(), timeout=30)
    assert probe.ok, probe.error
    assert probe.tools == ("get_forecast",)


def test_broken_launch_command() -> None:
    probe = probe_stdio(Launch("/nonexistent/bin/weather-server"), _env(), timeout=10)
    assert not probe.ok and "not found" in probe.error


def test_server_that_exits_at_once_reports_its_stderr() -> None:
    code = "import sys; print('WEATHER_TOKEN is not set', file=sys.stderr); sys.exit(3)"
    probe = probe_stdio(Launch(sys.executable, ("-c", code)), _env(), timeout=10)
    assert not probe.ok
    assert "WEATHER_TOKEN is not set" in probe.error


def test_silent_server_times_out_instead_of_hanging() -> None:
    started = time.monotonic()
    probe = probe_stdio(
        Launch(sys.executable, ("-c", "import time; time.sleep(60)")), _env(), timeout=2
    )
    assert not probe.ok and "in time" in probe.error
    assert time.monotonic() - started < 15


def test_diagnose_reports_per_host(
    manifest: Manifest, server_script: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hosts = [get_host(k) for k in ("claude-code", "cline", "vscode")]
    environ = {k: v for k, v in _env().items() if k not in ("WEATHER_TOKEN", "WEATHER_REGION")}
    launch = Launch(sys.executable, (str(server_script),))
    _, probe, http, reports = diagnose(
        manifest,
        Path("/x"),
        hosts,
        launcher="venv",
        facts=MachineFacts("linux"),
        environ=environ,
        timeout=30,
        launch=launch,
        url="http://127.0.0.1:9/mcp",
    )
    assert probe.ok
    by_host = {r.host: r for r in reports}
    # Claude Code reads ${WEATHER_TOKEN} from the environment, which lacks it.
    assert by_host["claude-code"].status == "fail"
    assert any(
        "missing required environment variable WEATHER_TOKEN" in c.message
        for c in by_host["claude-code"].checks
    )
    # Cline takes literal values: a warning to edit the placeholder, not a failure.
    assert by_host["cline"].status == "warn"
    assert http.status == "warn" and "nothing is listening" in http.message
    environ.update(WEATHER_TOKEN=SECRET_VALUE, WEATHER_REGION="eu")
    _, _, _, reports = diagnose(
        manifest,
        Path("/x"),
        hosts,
        launcher="venv",
        facts=MachineFacts("linux"),
        environ=environ,
        timeout=30,
        launch=launch,
        url="http://127.0.0.1:9/mcp",
    )
    assert {r.host: r.status for r in reports}["claude-code"] == "ok"
    assert all(SECRET_VALUE not in c.message for r in reports for c in r.checks)


def test_missing_venv_interpreter_is_reported(manifest: Manifest, tmp_path: Path) -> None:
    _, probe, _, reports = diagnose(
        manifest,
        tmp_path,
        [get_host("claude-desktop")],
        launcher="venv",
        facts=MachineFacts("linux"),
        environ={},
        timeout=5,
        url="http://127.0.0.1:9/mcp",
    )
    assert not probe.ok
    messages = [c.message for c in reports[0].checks]
    assert any("missing program or interpreter" in m for m in messages)


def test_port_in_use_by_something_that_is_not_mcp(manifest: Manifest) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
        assert port_in_use(url)
        check = http_check(url, manifest.script, timeout=2)
    assert check.status == "fail" and "port in use" in check.message


@pytest.mark.skipif(sys.platform == "win32", reason="the fake venv script is a POSIX shell script")
def test_doctor_against_a_generated_server(tmp_path: Path) -> None:
    """The whole chain: generate a project, fake its venv script, handshake through it."""
    import os
    import stat

    from mcpgen.generation import generate_project
    from mcpgen.manifest import find_manifest, load_manifest
    from tests.cli.test_hosts import MANIFEST

    root = tmp_path / "weather"
    root.mkdir()
    (root / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    generate_project(root)
    # What `pip install -e .` would put in the venv: a script that runs the package.
    script = root / ".venv" / "bin" / "weather-server"
    script.parent.mkdir(parents=True)
    script.write_text(
        f'#!/bin/sh\nPYTHONPATH="{root / "src"}" exec "{sys.executable}" -m weather "$@"\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    manifest = load_manifest(find_manifest(root))
    environ = {**os.environ, "WEATHER_TOKEN": SECRET_VALUE}
    launch, probe, _, reports = diagnose(
        manifest,
        root,
        [get_host("claude-desktop"), get_host("claude-code")],
        launcher="venv",
        facts=MachineFacts("linux"),
        environ=environ,
        timeout=60,
        url="http://127.0.0.1:9/mcp",
    )
    assert launch.command == str(script)
    assert probe.ok, probe.error
    assert probe.tools == ("get_forecast",)
    assert {r.host: r.status for r in reports} == {"claude-desktop": "warn", "claude-code": "ok"}
