"""`mcpgen update` in a real git clone whose `.mcpgen/` points outside the project: refused
with the file and line, and the file outside is never touched."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mcpgen.commands.update import ANSWERS_FILE, RECORD_PATH
from mcpgen.write.state import STATE_PATH, sha256_hex
from tests.support.demo_project import Run
from tests.unit.write.test_hostile_state import VICTIM_BYTES, _edit_state, _run, victim

__all__ = ["victim"]  # the fixture, shared with the in-process tests


def _clone(root: Path) -> None:
    """The project as a cloned repository that `mcpgen update` accepts."""
    (root / ANSWERS_FILE).write_text("_src_path: x\npackage: demo\n")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "clone"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=root,
            check=True,
            capture_output=True,
        )


def test_update_in_a_hostile_clone_touches_nothing_outside(
    project: Run, victim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = {"mcpgen_version": "0.0.1", "template": {"../../passwd": "pwned\n"}}
    (project.root / RECORD_PATH).write_text(json.dumps(record, indent=2))
    _clone(project.root)
    code, stderr = _run(["update"], project.root, capsys)
    assert code == 1 and f"{RECORD_PATH}:4:5:" in stderr and "outside the project" in stderr
    assert victim.read_bytes() == VICTIM_BYTES

    record["template"] = {"README.md.jinja": "new\n"}
    (project.root / RECORD_PATH).write_text(json.dumps(record, indent=2))

    def hostile(state: dict[str, object]) -> None:
        files = state["files"]
        assert isinstance(files, dict)
        files[str(victim)] = sha256_hex(VICTIM_BYTES)

    _edit_state(project.root, hostile)
    _clone(project.root)
    code, stderr = _run(["update"], project.root, capsys)
    assert code == 1 and f"{STATE_PATH}:" in stderr and "outside the project" in stderr
    assert victim.read_bytes() == VICTIM_BYTES
