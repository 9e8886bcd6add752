"""`examples/everything` (every fixture the official suite's server scenarios ask for) passes
`../shared/harness/conformance.sh` on both transports, with no scenario left not applicable.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.runtime.test_conformance import last_line, pytestmark, run_harness
from tests.support.project_venv import REPO, ProjectVenv, free_port

__all__ = ["pytestmark"]
EXAMPLE = REPO / "examples" / "everything"


@pytest.fixture(scope="module")
def everything_server(tmp_path_factory: pytest.TempPathFactory, project_venv: ProjectVenv) -> Path:
    root = tmp_path_factory.mktemp("conformance") / "everything"
    shutil.copytree(EXAMPLE, root)
    project_venv.install(root)
    return project_venv.bin / "everything-server"


def missing_fixtures(output: str) -> set[str]:
    """Scenarios the harness left not applicable because a fixture was missing."""
    found: set[str] = set()
    for line in output.splitlines():
        if "fixture scenario" in line:
            found |= {name.strip() for name in line.rsplit(":", 1)[1].split(",")}
    return found


def test_stdio_conformance(everything_server: Path, tmp_path: Path) -> None:
    done = run_harness("--stdio", str(everything_server), out=tmp_path / "stdio")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert last_line(done.stdout).endswith(" 0 failed")
    assert missing_fixtures(done.stdout) == set()


def test_http_conformance(everything_server: Path, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    start = f"{everything_server} --transport http --port {port}"
    done = run_harness("--http", url, "--start", start, out=tmp_path / "http")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert last_line(done.stdout).endswith(" 0 failed")
    assert missing_fixtures(done.stdout) == set()
