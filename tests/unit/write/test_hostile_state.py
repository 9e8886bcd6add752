"""A cloned repository's `.mcpgen/` is not trusted: no path in it reaches outside the project.

The victim is a file next to the project (outside it). Every command a user runs in a fresh
clone (`generate`, `generate --force`, `generate --check`, `check`) must refuse with an error
that names the file and line, write nothing, and never touch the victim.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from mcpgen.cli import main
from mcpgen.commands.update import ANSWERS_FILE
from mcpgen.write.journal import JOURNAL_PATH
from mcpgen.write.state import STATE_PATH, sha256_hex
from tests.support.demo_project import Run
from tests.support.in_memory import snapshot_tree

VICTIM_BYTES = b"root:x:0:0:root:/root:/bin/bash\n"
COMMANDS = (
    ["generate"],
    ["generate", "--force"],
    ["generate", "--check"],
    ["check"],
)


@pytest.fixture
def victim(project: Run) -> Path:
    path = project.root.parent / "passwd"
    path.write_bytes(VICTIM_BYTES)
    return path


def _edit_state(root: Path, change: Callable[[dict[str, object]], None]) -> None:
    path = root / STATE_PATH
    state = json.loads(path.read_text())
    change(state)
    path.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")


def _run(args: list[str], root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        main([*args, str(root)])
    code = done.value.code
    return (code if isinstance(code, int) else 1), capsys.readouterr().err


def _assert_refused_everywhere(
    project: Run, victim: Path, capsys: pytest.CaptureFixture[str], located: str
) -> None:
    before = snapshot_tree(project.root)
    for args in COMMANDS:
        code, stderr = _run(args, project.root, capsys)
        assert code != 0, (args, stderr)
        assert located in stderr and "outside the project" in stderr, (args, stderr)
        assert "Traceback" not in stderr
        assert victim.read_bytes() == VICTIM_BYTES, args
        assert snapshot_tree(project.root) == before, args


def _line_of(root: Path, needle: str) -> int:
    lines = (root / STATE_PATH).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


@pytest.mark.parametrize("how", ["absolute", "dotdot"])
def test_state_listing_a_file_outside_is_refused(
    project: Run, victim: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    path = str(victim) if how == "absolute" else "../passwd"

    def hostile(state: dict[str, object]) -> None:
        files = state["files"]
        assert isinstance(files, dict)
        files[path] = sha256_hex(VICTIM_BYTES)  # "untouched since written": would be deleted

    _edit_state(project.root, hostile)
    line = _line_of(project.root, json.dumps(path))
    _assert_refused_everywhere(project, victim, capsys, f"{STATE_PATH}:{line}:")


def test_state_user_file_outside_is_refused(
    project: Run, victim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def hostile(state: dict[str, object]) -> None:
        tools = state["tools"]
        assert isinstance(tools, dict)
        tools["get_alerts"]["user_files"].append("src/../../passwd")
        project.edit_manifest("- name: get_alerts", "- name: alerts\n    renamed_from: get_alerts")

    _edit_state(project.root, hostile)
    line = _line_of(project.root, "src/../../passwd")
    _assert_refused_everywhere(project, victim, capsys, f"{STATE_PATH}:{line}:")


def test_symlinked_folder_leading_outside_is_refused(
    project: Run, victim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = victim.parent / "elsewhere"
    shutil.move(project.root / "src/demo/_generated", outside)
    os.symlink(outside, project.root / "src/demo/_generated")
    project.edit_manifest("Forecast for a city", "Forecast for any city")  # something to write
    before_outside = snapshot_tree(outside)
    _assert_refused_everywhere(project, victim, capsys, "src/demo/_generated/")
    assert snapshot_tree(outside) == before_outside


def test_symlinked_generated_file_is_replaced_not_written_through(
    project: Run, victim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools_md = project.root / "TOOLS.md"
    tools_md.unlink()
    os.symlink(victim, tools_md)
    code, stderr = _run(["generate"], project.root, capsys)
    assert code == 3 and "TOOLS.md" in stderr
    code, stderr = _run(["generate", "--force"], project.root, capsys)
    assert code == 0, stderr
    assert victim.read_bytes() == VICTIM_BYTES
    assert not tools_md.is_symlink()


def test_hostile_journal_is_refused(
    project: Run, victim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = {
        "format": 1,
        "committed": False,
        "dirs": [],
        "ops": [{"kind": "create", "path": "../passwd", "temp": "x.mcpgen-tmp"}],
    }
    (project.root / JOURNAL_PATH).write_text(json.dumps(journal, indent=1))
    code, stderr = _run(["generate"], project.root, capsys)
    assert code == 1 and f"{JOURNAL_PATH}:" in stderr and "outside the project" in stderr
    assert victim.read_bytes() == VICTIM_BYTES


def test_answers_package_that_is_a_path_is_refused(
    project: Run, victim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project.root / ANSWERS_FILE).write_text("_src_path: x\npackage: ../../elsewhere\n")
    before = snapshot_tree(project.root)
    for args in COMMANDS:
        code, stderr = _run(args, project.root, capsys)
        assert code == 1 and f"{ANSWERS_FILE}:2:1: refusing package" in stderr, stderr
        assert snapshot_tree(project.root) == before
    assert not (project.root.parent / "elsewhere").exists()
