"""The generated weather server passes the official MCP conformance suite, the Inspector CLI
and the SDK-client probes of `../shared/harness/conformance.sh`, over stdio and HTTP.

Needs the harness beside the clone and installed (`bash ../shared/harness/setup.sh`, which
`.ci/run` calls); skipped with a one-line reason otherwise. No expected-failures file is
passed: the generated server answers the malformed stdio lines that SDK-based servers drop.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support.project_venv import REPO, ProjectVenv, free_port

HARNESS = REPO.parent / "shared" / "harness"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
HARNESS_HOME = Path(os.environ.get("MCP_HARNESS_HOME", CACHE / "mcp-harness"))  # as setup.sh
SETUP = "`bash ../shared/harness/setup.sh`"


def _harness_missing() -> str:
    """Why the harness cannot run here, in one line; empty when it can."""
    if not (HARNESS / "conformance.sh").is_file():
        return f"no MCP conformance harness at {HARNESS}: put it there, then run {SETUP}"
    if not (HARNESS_HOME / ".venv").is_dir():
        return f"MCP conformance harness not installed: run {SETUP}"
    return ""


pytestmark = pytest.mark.skipif(bool(_harness_missing()), reason=_harness_missing())


@pytest.fixture(scope="module")
def weather_server(installed_weather: Path, project_venv: ProjectVenv) -> Path:
    """The installed `mcpgen new weather` server (tests/e2e/conftest.py)."""
    return project_venv.bin / "weather-server"


def run_harness(*args: str, out: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["bash", str(HARNESS / "conformance.sh"), *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
    )
    return done


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def test_stdio_conformance(weather_server: Path, tmp_path: Path) -> None:
    done = run_harness("--stdio", str(weather_server), out=tmp_path / "stdio")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert last_line(done.stdout).endswith(" 0 failed")


def test_http_conformance(weather_server: Path, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    start = f"{weather_server} --transport http --port {port}"
    done = run_harness("--http", url, "--start", start, out=tmp_path / "http")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert last_line(done.stdout).endswith(" 0 failed")
