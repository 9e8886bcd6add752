"""Real signals at random points of a real commit: the tree is always fully old or fully new.

A 150-tool project gets a big manifest edit (20 renames, 40 changed tools, 5 removed, 20
added) and `python -m mcpgen generate` is started on it with every step slowed down
(`MCPGEN_DEBUG_STEP_DELAY`), so that the commit lasts about a second. Once its journal
appears, SIGKILL, SIGTERM or SIGINT lands after a random delay. Then:

- SIGTERM / SIGINT: the process rolled back by itself (exit non-zero, a message), or had
  already finished (exit 0); the tree is exactly the old one or exactly the new one.
- SIGKILL: the next command (`mcpgen generate --check`) says it recovered, and the tree is
  then exactly old or new.
- in every case each byte the user wrote is still there, and a normal run converges.

`MCPGEN_CRASH_RUNS` sets the interruptions per signal (1 in CI, 3 in a full run, see
`tests/support/sweep.py`); the figures are printed.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest
from rich.console import Console

from mcpgen.generation import generate_project
from mcpgen.write.journal import JOURNAL_PATH
from mcpgen.write.lock import LOCK_PATH
from tests.support.generate_processes import (
    changed_tools,
    copy_project,
    manifest_text,
    mark_user_files,
    mcpgen,
    project_tree,
    run_mcpgen,
    synthetic_tool,
    user_files,
    wait_for_journal,
)
from tests.support.in_memory import Tree
from tests.support.sweep import rounds

RUNS = int(os.environ.get("MCPGEN_CRASH_RUNS", rounds(1, 3)))
DELAY = 0.004  # seconds per commit step: about 150 steps, a commit window of over half a second
QUIET = Console(file=open(os.devnull, "w"), color_system=None)


class Trees:
    """The project before and after the edit, both rendered at `work` (host snippets hold the
    project's absolute path); `pristine` is a copy of the old one to start each run from."""

    def __init__(self, base: Path) -> None:
        self.work = base / "work"
        self.work.mkdir()
        (self.work / "mcpgen.yaml").write_text(
            manifest_text([synthetic_tool(i) for i in range(150)]), encoding="utf-8"
        )
        generate_project(self.work)
        mark_user_files(self.work)
        self.first_manifest = (self.work / "mcpgen.yaml").read_text(encoding="utf-8")
        (self.work / "mcpgen.yaml").write_text(manifest_text(changed_tools(150)), encoding="utf-8")
        self.old: Tree = project_tree(self.work)
        self.pristine = copy_project(self.work, base / "pristine")
        generate_project(self.work)
        self.new: Tree = project_tree(self.work)
        assert self.old != self.new
        self.user_bytes = sorted(user_files(self.old).values())
        assert len(self.user_bytes) == 300
        self.commit_seconds = self._time_a_commit()

    def _time_a_commit(self) -> float:
        """How long a slowed-down commit lasts here: signals land anywhere in 0..1.3x that."""
        root = self.fresh()
        process = mcpgen("generate", str(root), delay=DELAY)
        assert wait_for_journal(root, process)
        start = time.monotonic()
        _, stderr = process.communicate(timeout=300)
        assert process.returncode == 0, stderr
        assert project_tree(root) == self.new
        return time.monotonic() - start

    def fresh(self) -> Path:
        return copy_project(self.pristine, self.work)


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> Trees:
    return Trees(tmp_path_factory.mktemp("crash"))


def _which(tree: Tree, trees: Trees) -> str:
    return "old" if tree == trees.old else "new" if tree == trees.new else "mixed"


def _interrupt(trees: Trees, signum: int, rng: random.Random) -> tuple[str, str]:
    """One interrupted run; (old/new/mixed after recovery, what the process printed)."""
    root = trees.fresh()
    process = mcpgen("generate", str(root), delay=DELAY)
    if wait_for_journal(root, process):
        time.sleep(rng.uniform(0, 1.3 * trees.commit_seconds))
        process.send_signal(signum)
    _, stderr = process.communicate(timeout=300)
    pending = (root / JOURNAL_PATH).exists()  # no journal: killed after the commit was done
    if signum == signal.SIGKILL and process.returncode == -signal.SIGKILL and pending:
        recovery = run_mcpgen("generate", "--check", str(root))
        assert "interrupted write" in recovery.stderr, recovery.stderr
        assert "Traceback" not in recovery.stderr
        stderr += recovery.stderr
    tree = project_tree(root)
    if tree.pop(LOCK_PATH, None) is not None:
        # A signal between the end of the commit and the lock's release leaves the lock file
        # (the kernel released the lock itself): a name tag, which the next run takes over.
        follow_up = run_mcpgen("generate", "--check", str(root))
        assert "another mcpgen" not in follow_up.stderr, follow_up.stderr
        assert not (root / LOCK_PATH).exists()
    if signum != signal.SIGKILL and process.returncode != 0:
        # Before the commit was done: undone, and said so. After: complete, and said so
        # (Ctrl-C during the cleanup, or after the files written were listed), or ended by
        # the default SIGTERM action once the cleanup was over.
        undone = "every change was undone" in stderr and tree == trees.old
        complete = tree == trees.new and (
            "interrupted after every change was written" in stderr
            or "\nWrote " in stderr
            or process.returncode == -signal.SIGTERM
        )
        assert undone or complete, stderr
        assert "Traceback" not in stderr
    assert sorted(user_files(tree).values()) == trees.user_bytes, "user bytes lost"
    return _which(tree, trees), stderr


def test_signals_at_random_points_of_a_commit(trees: Trees) -> None:
    rng = random.Random(os.environ.get("MCPGEN_CRASH_SEED", "9"))
    outcomes: dict[str, list[str]] = {}
    for signum in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
        for _ in range(RUNS):
            which, printed = _interrupt(trees, signum, rng)
            outcomes.setdefault(signal.Signals(signum).name, []).append(which)
            assert which != "mixed", printed
    # A normal run after the last interruption converges to the fresh render.
    generate_project(trees.work)
    assert project_tree(trees.work) == trees.new
    total = sum(len(v) for v in outcomes.values())
    mixed = sum(v.count("mixed") for v in outcomes.values())
    print(
        f"\ninterruptions: {total} {outcomes}; mixed trees: {mixed}; user bytes lost: 0; "
        f"commit window {trees.commit_seconds:.2f}s"
    )
    rolled_back = [w for v in outcomes.values() for w in v if w == "old"]
    assert rolled_back, "no signal landed inside a commit: the test did not test anything"


def test_after_a_kill_reverting_the_manifest_is_not_refused(trees: Trees) -> None:
    root = trees.fresh()
    process = mcpgen("generate", str(root), delay=DELAY)
    assert wait_for_journal(root, process)
    time.sleep(50 * DELAY)
    process.kill()
    process.wait(timeout=60)
    assert list(root.rglob("*.mcpgen-*")), "the kill left a half-done commit behind"
    (root / "mcpgen.yaml").write_text(trees.first_manifest, encoding="utf-8")
    done = run_mcpgen("generate", str(root))
    assert done.returncode == 0, done.stderr
    assert "Recovered from an interrupted write" in done.stderr
    assert "changed by hand" not in done.stderr
    assert not list(root.rglob("*.mcpgen-*")), "leftovers removed"
    assert not (root / ".mcpgen/journal.json").exists()
    assert sorted(user_files(project_tree(root)).values()) == trees.user_bytes


def _interrupt_once_committed(trees: Trees) -> tuple[int | None, str]:
    """SIGINT the moment the journal goes (the commit is over, the report not yet printed)."""
    root = trees.fresh()
    process = mcpgen("generate", str(root), delay=DELAY)
    assert wait_for_journal(root, process)
    while (root / JOURNAL_PATH).exists() and process.poll() is None:
        time.sleep(0.0005)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=300)
    assert project_tree(root).items() >= trees.new.items(), "the commit was complete"
    return process.returncode, stderr


def test_ctrl_c_once_the_commit_is_over_says_the_project_is_written(trees: Trees) -> None:
    """Between the commit and the last line printed, Ctrl-C never ends the run in silence."""
    outcomes = []
    for _ in range(rounds(3, 10)):
        code, stderr = _interrupt_once_committed(trees)
        outcomes.append(code)
        assert "Traceback" not in stderr
        if code != 0:
            said = ("interrupted after every change was written", "\nWrote ")
            assert any(s in stderr for s in said), stderr
    print(f"\nexit codes of Ctrl-C just after the commit: {outcomes}")
