"""A removed tool's handler and user test go with it while they hold only the bytes mcpgen
wrote (left behind, they import models that no longer exist: the project's tests and type
check fail); an edited one stays, reported. The deletion is a step of the same crash-safe
commit as every other write."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from mcpgen.commands.check import check_project
from mcpgen.errors import McpgenError
from mcpgen.write.state import STATE_PATH, load_state
from tests.support.demo_project import Run

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
