"""All or nothing: a crash between any two steps leaves the tree byte-identical."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mcpgen.write import transaction
from mcpgen.write.transaction import Step, commit

from .helpers import snapshot_tree, write_tree


class Boom(Exception):
    pass


def _steps() -> list[Step]:
    return [
        Step("move", "handlers/new.py", source="handlers/old.py"),
        Step("write", "gen/a.py", content=b"A2"),
        Step("write", "deep/new/dir/b.py", content=b"B"),
        Step("delete", "gen/gone.py"),
        Step("write", ".mcpgen/state.json", content=b"{}"),
    ]


def _setup(root: Path) -> None:
    write_tree(
        root,
        {"handlers/old.py": "mine", "gen/a.py": "A1", "gen/gone.py": "G", "keep.txt": "k"},
    )


def test_commit_applies_every_step(tmp_path: Path) -> None:
    _setup(tmp_path)
    commit(tmp_path, _steps())
    tree = snapshot_tree(tmp_path)
    assert tree["handlers/new.py"] == b"mine"
    assert "handlers/old.py" not in tree
    assert tree["gen/a.py"] == b"A2"
    assert tree["deep/new/dir/b.py"] == b"B"
    assert "gen/gone.py" not in tree
    assert not [p for p in tree if "mcpgen-" in p], "no temp or backup file is left behind"


@pytest.mark.parametrize("crash_before", range(len(_steps())))
def test_crash_before_any_step_leaves_tree_unchanged(tmp_path: Path, crash_before: int) -> None:
    _setup(tmp_path)
    before = snapshot_tree(tmp_path)

    def hook(index: int, step: Step) -> None:
        if index == crash_before:
            raise Boom(step.path)

    with pytest.raises(Boom):
        commit(tmp_path, _steps(), hook=hook)
    assert snapshot_tree(tmp_path) == before


def test_module_level_hook_and_keyboard_interrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _setup(tmp_path)
    before = snapshot_tree(tmp_path)

    def hook(index: int, step: Step) -> None:
        if index == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(transaction, "step_hook", hook)
    with pytest.raises(KeyboardInterrupt):
        commit(tmp_path, _steps())
    assert snapshot_tree(tmp_path) == before


def test_failure_while_staging_leaves_tree_unchanged(tmp_path: Path) -> None:
    _setup(tmp_path)
    before = snapshot_tree(tmp_path)
    (tmp_path / "blocker").write_text("a file where a directory is needed")
    steps = [Step("write", "gen/a.py", content=b"A2"), Step("write", "blocker/x.py", content=b"")]
    with pytest.raises(OSError):
        commit(tmp_path, steps)
    assert snapshot_tree(tmp_path) == {**before, "blocker": b"a file where a directory is needed"}


def test_update_keeps_file_mode(tmp_path: Path) -> None:
    _setup(tmp_path)
    os.chmod(tmp_path / "gen/a.py", 0o755)
    commit(tmp_path, [Step("write", "gen/a.py", content=b"A2")])
    assert stat.S_IMODE((tmp_path / "gen/a.py").stat().st_mode) == 0o755


def test_move_never_overwrites(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": "a", "b.py": "b"})
    before = snapshot_tree(tmp_path)
    with pytest.raises(Exception, match="target exists"):
        commit(tmp_path, [Step("move", "b.py", source="a.py")])
    assert snapshot_tree(tmp_path) == before
