"""Symlinks a cloned repository may plant in `.mcpgen/`: mcpgen never writes through them.

Real `python -m mcpgen` runs on a real project; the victim is a file outside it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.demo_project import Run
from tests.support.generate_processes import run_mcpgen

PRECIOUS = "the user's file outside the project\n"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "precious.txt"
    path.parent.mkdir()
    path.write_text(PRECIOUS, encoding="utf-8")
    return path


@pytest.mark.parametrize("args", [["generate"], ["generate", "--check"], ["check"]])
def test_a_lock_that_is_a_symlink_is_refused_not_written_through(
    project: Run, victim: Path, args: list[str]
) -> None:
    lock = project.root / ".mcpgen" / "lock"
    lock.symlink_to(victim)
    done = run_mcpgen(*args, str(project.root))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "refusing .mcpgen/lock: it is a symlink; nothing was written" in done.stderr
    assert victim.read_text(encoding="utf-8") == PRECIOUS
    assert lock.is_symlink(), "the link is the user's to remove"


def test_a_planted_journal_temp_is_never_written_through(project: Run, victim: Path) -> None:
    (project.root / ".mcpgen" / ".journal.json.writing").symlink_to(victim)
    project.edit_manifest("Forecast for a city", "Forecast for any city")
    done = run_mcpgen("generate", str(project.root))
    assert done.returncode == 0, done.stderr
    assert victim.read_text(encoding="utf-8") == PRECIOUS


def test_a_state_folder_that_leads_out_of_the_project_is_refused(
    project: Run, victim: Path
) -> None:
    mcpgen_folder = project.root / ".mcpgen"
    for child in mcpgen_folder.iterdir():
        child.rename(victim.parent / child.name)
    mcpgen_folder.rmdir()
    mcpgen_folder.symlink_to(victim.parent)
    before = sorted(p.name for p in victim.parent.iterdir())
    project.edit_manifest("Forecast for a city", "Forecast for any city")
    done = run_mcpgen("generate", str(project.root))
    assert done.returncode == 1, done.stderr
    assert "refusing .mcpgen/lock: a folder on its way is a symlink" in done.stderr
    assert sorted(p.name for p in victim.parent.iterdir()) == before
    assert victim.read_text(encoding="utf-8") == PRECIOUS
