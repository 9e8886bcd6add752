"""generate_project on a real render: the issue's scenarios, in process (fast, no venv)."""

from __future__ import annotations

import pytest

from mcpgen.errors import ExitCode, ManifestInvalid, McpgenError
from mcpgen.write import transaction
from tests.support.demo_project import Run
from tests.support.in_memory import snapshot_tree

HANDLERS = "src/demo/handlers"
MY_HANDLER = '"""mine"""\n\n\ndef get_alerts(args):  # my code\n    return "calm"\n'


def _tree_without_hosts(run: Run) -> dict[str, bytes]:
    return {k: v for k, v in snapshot_tree(run.root).items() if not k.startswith("hosts")}


def test_second_run_writes_nothing(project: Run) -> None:
    before = snapshot_tree(project.root)
    report = project()
    assert not report.written and report.up_to_date
    assert "Up to date: nothing to write." in project.printed
    assert snapshot_tree(project.root) == before


def test_add_tool_creates_stubs_and_keeps_handlers(project: Run) -> None:
    (project.root / HANDLERS / "get_alerts.py").write_text(MY_HANDLER)
    project.edit_manifest("tools:\n", "tools:\n  - name: ping\n    input_schema: {type: object}\n")
    report = project()
    assert report.summary.added == ("ping",)
    assert "+ ping: tool added" in project.printed
    assert (project.root / HANDLERS / "ping.py").exists()
    assert (project.root / "tests/test_ping.py").exists()
    assert (project.root / HANDLERS / "get_alerts.py").read_text() == MY_HANDLER


def test_remove_tool_keeps_handler_and_reports_orphan_every_run(project: Run) -> None:
    (project.root / HANDLERS / "get_alerts.py").write_text(MY_HANDLER)
    text = (project.root / "mcpgen.yaml").read_text()
    project.manifest(text[: text.index("  - name: get_alerts")])
    report = project()
    assert report.summary.removed == ("get_alerts",)
    # Its user test, still mcpgen's stub, went with it (it imports the tool's models).
    assert report.orphans == (f"{HANDLERS}/get_alerts.py",)
    assert not (project.root / "tests/test_get_alerts.py").exists()
    assert (project.root / HANDLERS / "get_alerts.py").read_text() == MY_HANDLER
    assert "get_alerts" not in (project.root / "src/demo/_generated/tools.py").read_text()
    project()
    assert f"Orphaned handler: {HANDLERS}/get_alerts.py" in project.printed


def test_rename_keeps_the_python_name_so_nothing_moves(project: Run) -> None:
    (project.root / HANDLERS / "get_alerts.py").write_text(MY_HANDLER)
    project.edit_manifest("- name: get_alerts", "- name: list_alerts\n    renamed_from: get_alerts")
    report = project()
    (rename,) = report.summary.renamed
    assert (rename.old, rename.new, rename.moves) == ("get_alerts", "list_alerts", ())
    assert rename.new_python_name == "get_alerts"
    assert (project.root / HANDLERS / "get_alerts.py").read_text() == MY_HANDLER
    assert "keeps its Python name `get_alerts` (stable names)" in project.printed
    assert "BREAKS" not in project.printed and report.orphans == ()
    assert '"list_alerts"' in (project.root / "src/demo/_generated/tools.py").read_text()
    assert project().up_to_date, "the kept name is recorded: the next run is a no-op"
    # Writing the python_name out is the explicit way to move to the new name.
    project.edit_manifest("renamed_from: get_alerts", "python_name: list_alerts")
    report = project()
    assert (project.root / HANDLERS / "list_alerts.py").read_text() == MY_HANDLER


def test_rename_moves_handler_and_user_test_untouched(project: Run) -> None:
    (project.root / HANDLERS / "get_alerts.py").write_text(MY_HANDLER)
    user_test = (project.root / "tests/test_get_alerts.py").read_bytes()
    project.edit_manifest(
        "- name: get_alerts",
        "- name: list_alerts\n    renamed_from: get_alerts\n    python_name: list_alerts",
    )
    report = project()
    assert [(r.old, r.new) for r in report.summary.renamed] == [("get_alerts", "list_alerts")]
    assert (project.root / HANDLERS / "list_alerts.py").read_text() == MY_HANDLER
    assert (project.root / "tests/test_list_alerts.py").read_bytes() == user_test
    assert not (project.root / HANDLERS / "get_alerts.py").exists()
    assert f"moves {HANDLERS}/get_alerts.py → {HANDLERS}/list_alerts.py" in project.printed
    assert "rename its function `get_alerts` to `list_alerts`" in project.printed
    assert report.orphans == ()


def test_breaking_changes_are_printed_before_writing(project: Run) -> None:
    project.edit_manifest("required: [city]", "required: [city, days]")
    project.edit_manifest("days: {type: integer}", "days: {type: string}")
    project.edit_manifest("{city: Paris}", "{city: Paris, days: two}")
    report = project()
    (change,) = report.summary.changed
    assert {c.text for c in change.breaking} == {
        "argument `days` is now required",
        "argument `days` changed type from integer to string",
    }
    assert "BREAKS the handler: argument `days` is now required" in project.printed
    assert project.printed.index("BREAKS") < project.printed.index("updated")


def test_description_only_change_is_not_breaking(project: Run) -> None:
    project.edit_manifest("description: Alerts for a region", "description: Weather alerts")
    report = project()
    (change,) = report.summary.changed
    assert change.breaking == ()
    assert "TOOLS.md" in {a.path for a in report.applied.changes}


def test_hand_edited_generated_file_is_refused_then_forced(project: Run) -> None:
    tools_py = project.root / "src/demo/_generated/tools.py"
    tools_py.write_text(tools_py.read_text() + "# my tweak\n")
    project.edit_manifest("description: Alerts for a region", "description: Weather alerts")
    before = snapshot_tree(project.root)
    with pytest.raises(McpgenError) as info:
        project()
    assert info.value.exit_code == ExitCode.CONFLICT
    assert "src/demo/_generated/tools.py: edited by hand" in info.value.message
    assert snapshot_tree(project.root) == before  # nothing else written either
    project(force=True)
    assert (project.root / "src/demo/_generated/tools.py.orig").read_text().endswith("# my tweak\n")
    assert "# my tweak" not in tools_py.read_text()
    assert project().up_to_date


def test_invalid_manifest_writes_nothing(project: Run) -> None:
    before = snapshot_tree(project.root)
    project.edit_manifest("region: {type: string}", "region: {type: strin}")
    project.edit_manifest("- name: get_alerts", "- name: get_alerts\n    bogus_key: 1")
    with pytest.raises(ManifestInvalid) as info:
        project()
    assert len(info.value.diagnostics) >= 2  # every problem, not the first one
    manifest = (project.root / "mcpgen.yaml").read_bytes()
    assert snapshot_tree(project.root) == {**before, "mcpgen.yaml": manifest}


@pytest.mark.parametrize("crash_at", [1, 3])
def test_crash_between_writes_leaves_tree_unchanged(
    project: Run, monkeypatch: pytest.MonkeyPatch, crash_at: int
) -> None:
    project.edit_manifest("tools:\n", "tools:\n  - name: ping\n    input_schema: {type: object}\n")
    before = snapshot_tree(project.root)

    def crash(index: int, step: transaction.Step) -> None:
        if index == crash_at:
            raise OSError(28, "No space left on device (injected)")

    monkeypatch.setattr(transaction, "step_hook", crash)
    with pytest.raises(McpgenError, match=r"\(injected\); nothing was changed"):
        project()
    assert snapshot_tree(project.root) == before
    monkeypatch.setattr(transaction, "step_hook", None)
    assert project().written


def test_check_on_current_and_stale_trees(project: Run) -> None:
    assert project(mode="check").stale == []
    assert "Generated files are up to date." in project.printed
    project.edit_manifest("description: Alerts for a region", "description: Weather alerts")
    before = snapshot_tree(project.root)
    report = project(mode="check")
    assert "TOOLS.md" in report.stale and "src/demo/_generated/tools.py" in report.stale
    assert "would be updated" in project.printed
    assert snapshot_tree(project.root) == before


def test_diff_prints_what_a_run_would_write(project: Run) -> None:
    project.edit_manifest("description: Alerts for a region", "description: Weather alerts")
    before = snapshot_tree(project.root)
    report = project(mode="diff")
    text = report.diff()
    assert "+++ b/TOOLS.md" in text and "+Weather alerts" in text
    assert snapshot_tree(project.root) == before


def test_output_is_byte_identical_across_directories(
    project: Run, tmp_path_factory: pytest.TempPathFactory
) -> None:
    other = Run(tmp_path_factory.mktemp("again") / "demo")
    other.root.mkdir()
    other.manifest((project.root / "mcpgen.yaml").read_text())
    other()
    assert _tree_without_hosts(other) == _tree_without_hosts(project)
