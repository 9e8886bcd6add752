"""The run cache seen from real `python -m mcpgen generate` processes: a proven run prints
what a full run prints, and a file saved as a run ends is never recorded as clean."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcpgen.generation import run_cache
from tests.support.demo_project import Run

TOOLS = "src/demo/_generated/tools.py"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv(run_cache.CACHE_ENV, str(folder))
    monkeypatch.delenv(run_cache.DISABLE_ENV, raising=False)
    yield folder


def test_the_command_line_prints_the_same(project: Run, own_cache: Path) -> None:
    """Real processes: a proven run and a full run print the same and exit the same."""
    (project.root / "src/demo/handlers/retired.py").write_text("def retired() -> None: ...\n")
    command = [sys.executable, "-m", "mcpgen", "generate", str(project.root)]
    env = {**os.environ, run_cache.CACHE_ENV: str(own_cache)}
    first = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    proven = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    env_off = {**env, run_cache.DISABLE_ENV: "1"}
    full = subprocess.run(command, capture_output=True, text=True, env=env_off, check=False)
    assert first.returncode == proven.returncode == full.returncode == 0
    assert "Orphaned handler" in full.stderr
    assert (proven.stdout, proven.stderr) == (full.stdout, full.stderr)
    assert len(list((own_cache / "runs").glob("*.json"))) == 1


@pytest.mark.parametrize("delay", [0.0, 0.05])
def test_a_file_saved_as_the_run_ends_is_never_recorded_as_clean(
    project: Run, own_cache: Path, delay: float
) -> None:
    """Real processes: a user saves a generated file the moment mcpgen has written it; the
    next run must see the edit, exactly as a run without the record does."""
    project.edit_manifest("Forecast for a city", "Forecast for any city")
    target = project.root / TOOLS
    saver = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import time
                deadline = time.monotonic() + 120
                path = {str(target)!r}
                while time.monotonic() < deadline:
                    try:
                        if "any city" in open(path, encoding="utf-8").read():
                            break
                    except OSError:
                        pass
                with open(path, "a", encoding="utf-8") as handle:
                    handle.write("# saved by the user\\n")
                """
            ),
        ]
    )
    env = {**os.environ, run_cache.CACHE_ENV: str(own_cache), "MCPGEN_DEBUG_STEP_DELAY": str(delay)}
    command = [sys.executable, "-m", "mcpgen", "generate"]
    subprocess.run([*command, str(project.root)], capture_output=True, env=env, check=False)
    assert saver.wait(timeout=120) == 0
    assert "# saved by the user" in target.read_text(encoding="utf-8")
    env.pop("MCPGEN_DEBUG_STEP_DELAY")
    check = [*command, "--check", str(project.root)]
    proven = subprocess.run(check, capture_output=True, text=True, env=env, check=False)
    full = subprocess.run(
        check, capture_output=True, text=True, env={**env, run_cache.DISABLE_ENV: "1"}, check=False
    )
    assert proven.returncode == full.returncode == 1, full.stderr
    assert (proven.stdout, proven.stderr) == (full.stdout, full.stderr)
