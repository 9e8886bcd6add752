"""A removed tool's stubs go in the same crash-safe commit as every other write: a real
`python -m mcpgen generate` SIGKILLed during the removal leaves the old tree or the new one."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

from mcpgen.generation import generate_project
from mcpgen.write.journal import JOURNAL_PATH
from tests.support.demo_project import MANIFEST
from tests.support.generate_processes import (
    copy_project,
    mcpgen,
    project_tree,
    run_mcpgen,
    wait_for_journal,
)

MINE = "# mine\n"
DELAY = 0.02  # seconds per commit step: the few steps of a removal take a visible while


def test_a_kill_during_the_removal_leaves_old_or_new_never_half(tmp_path: Path) -> None:
    work = tmp_path / "demo"
    work.mkdir()
    tools = "".join(f"  - name: extra_{i}\n    input_schema: {{type: object}}\n" for i in range(8))
    (work / "mcpgen.yaml").write_text(MANIFEST + tools, encoding="utf-8")
    generate_project(work)
    edited = work / "tests/test_extra_0.py"
    edited.write_bytes(edited.read_bytes() + MINE.encode())
    mine = edited.read_bytes()
    old_tree = project_tree(work)
    pristine = copy_project(work, tmp_path / "pristine")
    (work / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    generate_project(work)
    new_tree = project_tree(work)
    assert not (work / "tests/test_extra_1.py").exists() and edited.read_bytes() == mine
    rng = random.Random(os.environ.get("MCPGEN_CRASH_SEED", "20"))
    seen = set()
    for _ in range(4):
        root = copy_project(pristine, work)
        (root / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
        process = mcpgen("generate", str(root), delay=DELAY)
        if wait_for_journal(root, process):
            time.sleep(rng.uniform(0, 20 * DELAY))
            process.send_signal(signal.SIGKILL)
        process.communicate(timeout=300)
        if (root / JOURNAL_PATH).exists():
            recovery = run_mcpgen("generate", "--check", str(root))
            assert "Traceback" not in recovery.stderr, recovery.stderr
        tree = {p: b for p, b in project_tree(root).items() if p != "mcpgen.yaml"}
        tree.pop(".mcpgen/lock", None)
        old = {p: b for p, b in old_tree.items() if p != "mcpgen.yaml"}
        new = {p: b for p, b in new_tree.items() if p != "mcpgen.yaml"}
        assert tree in (old, new), "a half-done removal"
        seen.add("old" if tree == old else "new")
        assert (root / "tests/test_extra_0.py").read_bytes() == mine
    assert "old" in seen, "no kill landed inside a commit: the test did not test anything"
    done = run_mcpgen("generate", str(work))
    assert done.returncode == 0, done.stderr
    assert not (work / "tests/test_extra_1.py").exists()
