"""A real generate run is all or nothing: a crash before any of its steps, a Ctrl-C, or an OS
error mid-way leaves every byte of the tree as it was (state file and `.orig` copies included).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from mcpgen.cli import main
from mcpgen.core.header import GENERATED_HEADER
from mcpgen.errors import McpgenError
from mcpgen.generation.engine import prepare
from mcpgen.write import apply, transaction
from mcpgen.write.state import STATE_PATH, sha256_hex
from tests.support.demo_project import Run
from tests.support.in_memory import snapshot_tree

GENERATED = "src/demo/_generated"
LEGACY = f"{GENERATED}/legacy.py"  # a generated file the render no longer plans: deleted
LEGACY_TEXT = f"{GENERATED_HEADER}\n# generated long ago\n"


def every_kind_of_step(run: Run) -> None:
    """Edit the project so that one forced run moves, creates, updates, backs up and deletes."""
    root = run.root
    tools_py = root / GENERATED / "tools.py"
    tools_py.write_text(tools_py.read_text() + "# my tweak\n")  # --force keeps it as .orig.2
    (root / f"{GENERATED}/tools.py.orig").write_text("an earlier hand edit\n")
    (root / LEGACY).write_text(LEGACY_TEXT)
    state = json.loads((root / STATE_PATH).read_text())
    state["files"][LEGACY] = sha256_hex(LEGACY_TEXT.encode())
    (root / STATE_PATH).write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")
    run.edit_manifest(
        "- name: get_alerts",
        "- name: list_alerts\n    renamed_from: get_alerts\n    python_name: list_alerts",
    )
    run.edit_manifest("tools:\n", "tools:\n  - name: ping\n    input_schema: {type: object}\n")


def crash_before(step_index: int, error: BaseException) -> transaction.StepHook:
    def hook(index: int, step: transaction.Step) -> None:
        if index == step_index:
            raise error

    return hook


def test_crash_or_ctrl_c_before_each_step_of_a_real_run(project: Run) -> None:
    every_kind_of_step(project)
    before = snapshot_tree(project.root)
    applied = prepare(project.root, force=True).applied
    kinds = {(a.kind, a.owner) for a in applied.changes}
    assert {("move", "user"), ("create", "user"), ("create", "backup")} <= kinds
    assert {("update", "generated"), ("delete", "generated"), ("update", "state")} <= kinds

    # One test, not a parametrize: the number of steps comes from the real render.
    for index in range(len(applied.changes)):
        injected = OSError(5, f"I/O error (injected at step {index})")
        with pytest.raises(McpgenError, match=rf"injected at step {index}\); nothing was"):
            apply.commit(project.root, applied, hook=crash_before(index, injected))
        assert snapshot_tree(project.root) == before, f"OSError before step {index}"
        with pytest.raises(KeyboardInterrupt):
            apply.commit(project.root, applied, hook=crash_before(index, KeyboardInterrupt()))
        assert snapshot_tree(project.root) == before, f"Ctrl-C before step {index}"

    apply.commit(project.root, applied)
    after = snapshot_tree(project.root)
    assert after[f"{GENERATED}/tools.py.orig"] == b"an earlier hand edit\n"
    assert after[f"{GENERATED}/tools.py.orig.2"].endswith(b"# my tweak\n")
    assert LEGACY not in after and "src/demo/handlers/list_alerts.py" in after
    assert not [p for p in after if ".mcpgen-" in p], "no temp or backup file is left"


def _fail_nth_rename(monkeypatch: pytest.MonkeyPatch, nth: int) -> None:
    # Root ignores permission bits (and chattr is not available), so EACCES is simulated at
    # the moment a target changes; a real file-in-the-way error is in test_transaction.py.
    calls = 0

    def failing(real: Callable[..., None]) -> Callable[..., None]:
        def change(source: Path, target: Path, **options: bool) -> None:
            nonlocal calls
            calls += 1
            if calls == nth:
                raise PermissionError(13, "Permission denied", str(target))
            real(source, target, **options)

        return change

    # Every change of a target is a link (new files, backups, moves) or a replace.
    monkeypatch.setattr(transaction.os, "replace", failing(os.replace))
    monkeypatch.setattr(transaction.os, "link", failing(os.link))


@pytest.mark.parametrize("nth", [1, 4, 8])
def test_permission_error_mid_way_is_a_clear_error_and_changes_nothing(
    project: Run,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    nth: int,
) -> None:
    every_kind_of_step(project)
    before = snapshot_tree(project.root)
    _fail_nth_rename(monkeypatch, nth)
    with pytest.raises(SystemExit) as done:
        main(["generate", "--force", str(project.root)])
    assert done.value.code == 1
    stderr = capsys.readouterr().err
    assert "Permission denied; nothing was changed" in stderr
    assert "error: cannot write " in stderr and "Traceback" not in stderr
    assert snapshot_tree(project.root) == before


def test_a_file_where_a_folder_should_be_is_reported_before_writing(
    project: Run, capsys: pytest.CaptureFixture[str]
) -> None:
    # What fails for root too: `tests` is a file, so nothing can be read or written below it.
    every_kind_of_step(project)
    shutil.rmtree(project.root / "tests")
    (project.root / "tests").write_text("not a folder\n")
    before = snapshot_tree(project.root)
    with pytest.raises(SystemExit) as done:
        main(["generate", "--force", str(project.root)])
    assert done.value.code == 1
    stderr = capsys.readouterr().err
    assert "cannot write tests/" in stderr and "a folder on its path is a file" in stderr
    assert "Traceback" not in stderr
    assert snapshot_tree(project.root) == before
