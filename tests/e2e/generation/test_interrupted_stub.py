"""A run interrupted after it created a handler stub the user then saved into, in place.

Editors that write in place and `echo >> file` change the stub's own inode, which is also the
staged file the journal names: undoing the write must judge by the bytes, not the inode. Each
test runs `python -m mcpgen generate` as a real process with a slowed commit, appends to a new
stub once it appears (mode "a" or "r+", never a replace), then sends a real signal.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from mcpgen.write.journal import JOURNAL_PATH
from tests.support.demo_project import Run
from tests.support.generate_processes import mcpgen, run_mcpgen, wait_for
from tests.support.sweep import rounds

STUB = "src/demo/handlers/extra_0.py"
SAVED = b"# saved into the stub in place while mcpgen ran\n"
DELAY = 0.15  # seconds per commit step: the stub exists for about a second before the end


def _append_in_place(path: Path, mode: str) -> None:
    with path.open(mode + "b") as handle:  # the same inode: no temp file, no rename
        handle.seek(0, os.SEEK_END)
        handle.write(SAVED)


def _new_tools(prefix: str) -> str:
    return "".join(
        f"  - name: {prefix}_{index}\n    input_schema: {{type: object}}\n" for index in range(6)
    )


def _start(project: Run, prefix: str = "extra") -> subprocess.Popen[str]:
    """`generate` after six tools were added, once the first new stub exists."""
    project.edit_manifest("tools:\n", "tools:\n" + _new_tools(prefix))
    process = mcpgen("generate", str(project.root), delay=DELAY)
    stub = project.root / f"src/demo/handlers/{prefix}_0.py"
    assert wait_for(stub, process), "generate ended before creating the stub"
    return process


def _committed(root: Path) -> bool:
    text = (root / JOURNAL_PATH).read_text(encoding="utf-8")
    return '"committed": true' in text


@pytest.mark.parametrize("mode", ["a", "r+"])
def test_sigkill_then_recovery_keeps_bytes_saved_into_a_new_stub(project: Run, mode: str) -> None:
    process = _start(project)
    _append_in_place(project.root / STUB, mode)
    process.kill()
    process.wait(timeout=60)
    assert (project.root / JOURNAL_PATH).exists()
    assert not _committed(project.root), "the kill came after the commit: nothing to undo"
    recovered = run_mcpgen("generate", str(project.root))
    assert recovered.returncode == 0, recovered.stderr
    assert "Traceback" not in recovered.stderr
    assert f"Kept {STUB}: it was saved while mcpgen was writing" in recovered.stderr
    assert (project.root / STUB).read_bytes().endswith(SAVED)
    assert not list(project.root.rglob("*.mcpgen-*")), "temps and backups removed"
    assert run_mcpgen("generate", "--check", str(project.root)).returncode == 0


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_signal_mid_commit_keeps_bytes_saved_into_a_new_stub(project: Run, signum: int) -> None:
    process = _start(project)
    _append_in_place(project.root / STUB, "a")
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode != 0, "the signal came after the commit: nothing was undone"
    assert "Traceback" not in stderr
    assert f"Kept {STUB}: it was saved while mcpgen was writing" in stderr
    assert (project.root / STUB).read_bytes().endswith(SAVED)
    assert not (project.root / JOURNAL_PATH).exists()
    assert not list(project.root.rglob("*.mcpgen-*"))


def test_sigkill_at_random_moments_never_loses_saved_bytes(project: Run) -> None:
    """The save lands anywhere in the commit, the kill anywhere after it: the bytes survive
    whether the next run undoes the write or completes it (2 kills in CI, 4 in a full run)."""
    rng = random.Random(os.environ.get("MCPGEN_CRASH_SEED", "20"))
    outcomes: list[str] = []
    for run in range(rounds(2, 4)):
        process = _start(project, f"batch{run}")
        stub = project.root / f"src/demo/handlers/batch{run}_0.py"
        time.sleep(rng.uniform(0, 4 * DELAY))
        _append_in_place(stub, rng.choice(["a", "r+"]))
        time.sleep(rng.uniform(0, 4 * DELAY))
        process.kill()
        process.wait(timeout=60)
        pending = (project.root / JOURNAL_PATH).exists()
        outcomes.append("undone" if pending and not _committed(project.root) else "complete")
        after = run_mcpgen("generate", str(project.root))
        assert after.returncode == 0, after.stderr
        assert "Traceback" not in after.stderr
        assert stub.read_bytes().endswith(SAVED), outcomes
    print(f"\nkills after an in-place save: {outcomes}; saved bytes lost: 0")
    assert "undone" in outcomes, "no kill landed inside a commit: the test did not test anything"


def test_a_killed_watch_keeps_bytes_saved_into_a_new_stub(project: Run) -> None:
    """`generate --watch` writes in process like `generate`: killed after the user saved into
    a stub its run had just created, the next run keeps the saved bytes."""
    watch = mcpgen("generate", "--watch", str(project.root), delay=DELAY)
    try:
        project.edit_manifest("tools:\n", "tools:\n" + _new_tools("watched"))
        stub = project.root / "src/demo/handlers/watched_0.py"
        assert wait_for(stub, watch), "the watch ended before creating the stub"
        _append_in_place(stub, "a")
        watch.kill()
        watch.wait(timeout=60)
        assert (project.root / JOURNAL_PATH).exists(), "the watch's run had finished its write"
    finally:
        if watch.poll() is None:
            watch.kill()
            watch.wait(timeout=60)
    after = run_mcpgen("generate", str(project.root))
    assert after.returncode == 0, after.stderr
    kept = "Kept src/demo/handlers/watched_0.py: it was saved while mcpgen was writing"
    assert kept in after.stderr
    assert stub.read_bytes().endswith(SAVED)
