"""All or nothing: a crash between any two steps leaves the tree byte-identical."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from mcpgen.errors import McpgenError
from mcpgen.write import atomic, transaction
from mcpgen.write.transaction import Step, commit
from tests.support.in_memory import snapshot_tree, write_tree


def _steps() -> list[Step]:
    """One of each kind, in the order apply.py emits them (moves first, the state file last)."""
    return [
        Step("move", "handlers/new.py", source="handlers/old.py"),
        Step("move", "tests/moved/test_new.py", source="tests/test_old.py"),  # into a new dir
        Step("write", "gen/a.py.orig", content=b"A1 edited"),  # --force keeps the hand edit
        Step("write", "gen/a.py", content=b"A2"),
        Step("write", "deep/new/dir/b.py", content=b"B"),
        Step("delete", "gen/gone.py"),
        Step("write", ".mcpgen/state.json", content=b"{}"),
    ]


def _setup(root: Path) -> None:
    write_tree(
        root,
        {
            "handlers/old.py": "mine",
            "tests/test_old.py": "my test",
            "gen/a.py": "A1 edited",
            "gen/gone.py": "G",
            "keep.txt": "k",
            ".mcpgen/state.json": '{"old": true}',
        },
    )


def test_commit_applies_every_step(tmp_path: Path) -> None:
    _setup(tmp_path)
    commit(tmp_path, _steps())
    tree = snapshot_tree(tmp_path)
    assert tree["handlers/new.py"] == b"mine"
    assert "handlers/old.py" not in tree
    assert tree["tests/moved/test_new.py"] == b"my test"
    assert tree["gen/a.py.orig"] == b"A1 edited"
    assert tree["gen/a.py"] == b"A2"
    assert tree["deep/new/dir/b.py"] == b"B"
    assert "gen/gone.py" not in tree
    assert not [p for p in tree if "mcpgen-" in p], "no temp or backup file is left behind"


class Boom(Exception):
    pass


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt], ids=["exception", "ctrl-c"])
@pytest.mark.parametrize("crash_before", range(len(_steps())))
def test_crash_before_any_step_leaves_tree_unchanged(
    tmp_path: Path, crash_before: int, error: type[BaseException]
) -> None:
    _setup(tmp_path)
    before = snapshot_tree(tmp_path)

    def hook(index: int, step: Step) -> None:
        if index == crash_before:
            raise error(step.path)

    with pytest.raises(error):
        commit(tmp_path, _steps(), hook=hook)
    assert snapshot_tree(tmp_path) == before  # temps, backups and new folders are gone too


# Every call that changes a target: the journal, two links per move, one link per new file,
# a link and a replace per update, a link per delete, the state file's link and replace, and
# the journal marked done.
LINKS_AND_REPLACES = 12


@pytest.mark.parametrize("failing_call", range(LINKS_AND_REPLACES))
def test_os_error_in_the_middle_is_rolled_back_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing_call: int
) -> None:
    # Root ignores permission bits, so the EACCES of a read-only folder is simulated on the
    # Nth link or replace that changes a target; the rollback's own calls then succeed.
    _setup(tmp_path)
    before = snapshot_tree(tmp_path)
    calls: list[str] = []

    def failing(real: Callable[..., object]) -> Callable[..., object]:
        def change(source: Path, target: Path, **options: bool) -> object:
            calls.append(str(target))
            if len(calls) == failing_call + 1:
                raise PermissionError(13, "Permission denied", str(target))
            return real(source, target, **options)

        return change

    monkeypatch.setattr(os, "replace", failing(os.replace))
    monkeypatch.setattr(os, "link", failing(os.link))
    monkeypatch.setattr(atomic, "exchange", failing(atomic.exchange))
    with pytest.raises(McpgenError, match=r"cannot write \S+: Permission denied; nothing was"):
        commit(tmp_path, _steps())
    monkeypatch.undo()
    assert snapshot_tree(tmp_path) == before
    assert len(calls) > failing_call, "the failure was injected"


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
    with pytest.raises(McpgenError, match=r"cannot write blocker/x\.py: Not a directory"):
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


def test_recovery_after_a_kill_inside_a_swap_hands_the_users_save_back(tmp_path: Path) -> None:
    """The disk as a run killed between the two exchanges of a swap leaves it: mcpgen's new
    bytes at the target, the user's save (caught by the exchange) in the temp, the old inode
    as the backup. Recovery puts the save back and says so."""
    from mcpgen.write import journal
    from mcpgen.write.state import sha256_hex

    old, new, saved = b"old\n", b"new\n", b"saved by the user during the swap\n"
    (tmp_path / "f.txt").write_bytes(new)
    (tmp_path / ".f.txt.1.mcpgen-tmp").write_bytes(saved)
    (tmp_path / ".f.txt.2.mcpgen-backup").write_bytes(old)
    op = journal.Op(
        "replace",
        "f.txt",
        temp=".f.txt.1.mcpgen-tmp",
        backup=".f.txt.2.mcpgen-backup",
        new=sha256_hex(new),
        old=sha256_hex(old),
    )
    (tmp_path / ".mcpgen").mkdir()
    journal.save(tmp_path, journal.Journal((op,), ()))
    said = journal.recover(tmp_path)
    assert said is not None and "Kept f.txt: it was saved while mcpgen was writing" in said
    assert (tmp_path / "f.txt").read_bytes() == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == [".mcpgen", "f.txt"]
