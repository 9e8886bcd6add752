"""`examples/everything` (every fixture the official suite's server scenarios ask for) passes
`../shared/harness/conformance.sh` on both transports, with no scenario left not applicable
for want of a fixture or of the tasks extension: every tasks scenario of the 2026-07-28 suite
runs and passes.

The harness's own SDK client calls every listed tool plainly and takes no tasks, so it does
not call the two tools that run only as tasks (`taskSupport: required`): their plain call is
refused, as MCP says, and the suite's tasks scenarios call them as tasks.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.e2e.runtime.test_conformance import last_line, pytestmark, run_harness
from tests.support.project_venv import REPO, ProjectVenv, free_port

__all__ = ["pytestmark"]
EXAMPLE = REPO / "examples" / "everything"
TASKS_ONLY = ("--skip-tools", "failing_job,test_tool_with_task")
# The suite's scenario that only says it is pending a rewrite (it skips itself, whatever the
# server): reported as having no applicable check.
SELF_SKIPPED = {"tasks-status-notifications"}


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


def tasks_rows(out: Path) -> dict[str, str]:
    """The 2026-07-28 suite's tasks scenarios in the harness's summary: name → status."""
    rows = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return {
        row["check"]: row["status"]
        for row in rows
        if row["section"] == "conformance-2026-07-28" and row["check"].startswith("tasks-")
    }


def test_stdio_conformance(everything_server: Path, tmp_path: Path) -> None:
    done = run_harness("--stdio", str(everything_server), *TASKS_ONLY, out=tmp_path / "stdio")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert last_line(done.stdout).endswith(" 0 failed")
    assert missing_fixtures(done.stdout) == set()


def test_http_conformance(everything_server: Path, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    start = f"{everything_server} --transport http --port {port}"
    done = run_harness("--http", url, "--start", start, *TASKS_ONLY, out=tmp_path / "http")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert last_line(done.stdout).endswith(" 0 failed")
    assert missing_fixtures(done.stdout) == set()
    assert "does not declare io.modelcontextprotocol/tasks" not in done.stdout
    scenarios = tasks_rows(tmp_path / "http")
    assert len(scenarios) >= 10, scenarios
    assert {name for name, status in scenarios.items() if status != "PASS"} == SELF_SKIPPED
