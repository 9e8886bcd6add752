"""`examples/everything` (every fixture the official suite's server scenarios ask for) passes
`../shared/harness/conformance.sh` on both transports, with no scenario left not applicable.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.helpers import REPO, ProjectVenv, free_port
from tests.e2e.test_conformance import last_line, pytestmark, run_harness

__all__ = ["pytestmark"]
EXAMPLE = REPO / "examples" / "everything"


@pytest.fixture(scope="module")
def everything_server(tmp_path_factory: pytest.TempPathFactory, project_venv: ProjectVenv) -> Path:
    root = tmp_path_factory.mktemp("conformance") / "everything"
    shutil.copytree(EXAMPLE, root)
    project_venv.install(root)
    return project_venv.bin / "everything-server"


def not_applicable(output: str) -> list[str]:
    return [line for line in output.splitlines() if "N/A" in line or "not applicable" in line]


def test_stdio_conformance(everything_server: Path, tmp_path: Path) -> None:
    done = run_harness("--stdio", str(everything_server), out=tmp_path / "stdio")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert last_line(done.stdout).endswith(" 0 failed")
    assert not_applicable(done.stdout) == []


def test_http_conformance(everything_server: Path, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    start = f"{everything_server} --transport http --port {port}"
    done = run_harness("--http", url, "--start", start, out=tmp_path / "http")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert last_line(done.stdout).endswith(" 0 failed")
    assert not_applicable(done.stdout) == []
