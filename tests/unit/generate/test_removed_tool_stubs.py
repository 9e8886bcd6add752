"""A removed tool's handler and user test go with it while they hold only the bytes mcpgen
wrote (left behind, they import models that no longer exist: the project's tests and type
check fail); an edited one stays, reported. The deletion is a step of the same crash-safe
commit as every other write."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest

from mcpgen.commands.check import check_project
from mcpgen.errors import McpgenError
from mcpgen.generate import generate_project
from mcpgen.write.journal import JOURNAL_PATH
from mcpgen.write.state import STATE_PATH, load_state
from tests.support.demo_project import MANIFEST, Run
from tests.support.generate_processes import (
    copy_project,
    mcpgen,
    project_tree,
    run_mcpgen,
    wait_for_journal,
)

HANDLER = "src/demo/handlers/get_alerts.py"
TEST = "tests/test_get_alerts.py"
MINE = "# mine\n"


def _remove_alerts(project: Run) -> None:
    text = (project.root / "mcpgen.yaml").read_text()
    project.manifest(text[: text.index("  - name: get_alerts")])


def test_unedited_stubs_go_with_their_tool(project: Run) -> None:
    assert load_state(project.root).tools["get_alerts"].stubs.keys() == {HANDLER, TEST}
    _remove_alerts(project)
    report = project()
    assert not (project.root / HANDLER).exists() and not (project.root / TEST).exists()
    assert report.orphans == ()
    assert f"deleted  {HANDLER}" in project.printed and f"deleted  {TEST}" in project.printed
    assert "unedited since mcpgen wrote them, go with it" in project.printed
    assert project().up_to_date
    assert check_project(project.root / "mcpgen.yaml").orphans == ()


@pytest.mark.parametrize("edited", [HANDLER, TEST])
def test_an_edited_stub_stays_and_is_reported(project: Run, edited: str) -> None:
    path = project.root / edited
    mine = path.read_bytes() + MINE.encode()
    path.write_bytes(mine)
    _remove_alerts(project)
    report = project()
    assert path.read_bytes() == mine
    assert edited in report.orphans
    other = TEST if edited == HANDLER else HANDLER
    assert not (project.root / other).exists()  # the unedited one went
    assert edited in check_project(project.root / "mcpgen.yaml").orphans


def test_a_stub_edited_back_to_its_bytes_holds_no_user_byte(project: Run) -> None:
    path = project.root / TEST
    original = path.read_bytes()
    path.write_bytes(original + MINE.encode())
    path.write_bytes(original)
    _remove_alerts(project)
    project()
    assert not path.exists()


def test_check_mode_deletes_nothing_and_says_what_would_go(project: Run) -> None:
    _remove_alerts(project)
    report = project(mode="check")
    assert (project.root / HANDLER).exists() and (project.root / TEST).exists()
    assert TEST in report.stale and HANDLER in report.stale
    assert report.orphans == ()


def test_a_symlink_at_a_stub_path_is_never_deleted(project: Run) -> None:
    path = project.root / TEST
    target = project.root / "kept_test.py"
    target.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(target)
    _remove_alerts(project)
    project()
    assert path.is_symlink() and target.exists()


def test_a_state_file_cannot_name_another_file_as_a_stub(project: Run) -> None:
    state = json.loads((project.root / STATE_PATH).read_text())
    precious = project.root / "src/demo/handlers/precious.py"
    precious.write_text("SECRET = 1\n")
    digest = hashlib.sha256(precious.read_bytes()).hexdigest()
    state["tools"]["get_alerts"]["stubs"]["src/demo/handlers/precious.py"] = digest
    (project.root / STATE_PATH).write_text(json.dumps(state))
    _remove_alerts(project)
    with pytest.raises(
        McpgenError, match=re.escape("refusing stub 'src/demo/handlers/precious.py'")
    ):
        project()
    assert precious.read_text() == "SECRET = 1\n"


def test_a_new_project_generated_before_stubs_were_recorded_keeps_them(project: Run) -> None:
    """A state file without `stubs` (an older mcpgen's): nothing says what mcpgen wrote."""
    state = json.loads((project.root / STATE_PATH).read_text())
    for record in state["tools"].values():
        del record["stubs"]
    (project.root / STATE_PATH).write_text(json.dumps(state))
    _remove_alerts(project)
    report = project()
    assert (project.root / HANDLER).exists() and HANDLER in report.orphans


DELAY = 0.02  # seconds per commit step: the few steps of a removal take a visible while


@pytest.mark.e2e
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


def test_a_save_in_place_as_the_stub_is_deleted_is_kept(
    project: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor writes into the stub's inode just between the commit's check of its bytes and
    the unlink: the bytes live on in the backup's inode, so the run is undone and they stay."""
    target = project.root / TEST
    original_unlink = Path.unlink

    def save_then_unlink(self: Path, missing_ok: bool = False) -> None:
        if self == target:
            with open(self, "ab") as editor:  # the same inode, as an in-place save
                editor.write(MINE.encode())
        original_unlink(self, missing_ok=missing_ok)

    _remove_alerts(project)
    monkeypatch.setattr(Path, "unlink", save_then_unlink)
    with pytest.raises(McpgenError, match="was changed while mcpgen was writing"):
        project()
    monkeypatch.undo()
    assert target.read_bytes().endswith(MINE.encode())
    assert not list(project.root.rglob("*.mcpgen-*"))


def test_check_before_generate_lists_the_stubs_as_stale_not_orphaned(project: Run) -> None:
    _remove_alerts(project)
    report = check_project(project.root / "mcpgen.yaml")
    assert {HANDLER, TEST} <= set(report.applied.stale())
    assert report.orphans == ()
