"""`../shared/harness/conformance.sh` (the official MCP conformance suite, the Inspector CLI
and the SDK-client probes) run against a server, for the e2e tests that judge one.

Needs the harness beside the clone and installed (`bash ../shared/harness/setup.sh`, which
`.ci/run` calls)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.project_venv import REPO

HARNESS = REPO.parent / "shared" / "harness"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
HARNESS_HOME = Path(os.environ.get("MCP_HARNESS_HOME", CACHE / "mcp-harness"))  # as setup.sh
SETUP = "`bash ../shared/harness/setup.sh`"


def harness_missing() -> str:
    """Why the harness cannot run here, in one line; empty when it can."""
    if not (HARNESS / "conformance.sh").is_file():
        return f"no MCP conformance harness at {HARNESS}: put it there, then run {SETUP}"
    if not (HARNESS_HOME / ".venv").is_dir():
        return f"MCP conformance harness not installed: run {SETUP}"
    return ""


def run_harness(
    *args: str, out: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The harness with `args`, its logs and summary.json kept in `out`."""
    return subprocess.run(
        ["bash", str(HARNESS / "conformance.sh"), *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=1500,
        env=env,
        check=False,
    )


def last_line(text: str) -> str:
    """The last non-blank line: the harness's `N passed, M failed`."""
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""
