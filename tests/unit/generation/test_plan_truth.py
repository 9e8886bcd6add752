"""The plan printed before writing is what happens, and `check` sees what would break."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcpgen.cli import main
from mcpgen.errors import McpgenError
from mcpgen.generation.engine import prepare
from mcpgen.generation.handler_check import check_handlers
from tests.support.demo_project import Run

HANDLERS = "src/demo/handlers"
TWO_TOOLS = """\
name: demo
version: 0.1.0
tools:
  - name: first
    python_name: alpha
    input_schema: {type: object, properties: {a: {type: string}}}
  - name: second
    python_name: beta
    input_schema: {type: object, properties: {b: {type: integer}}}
"""


def test_move_skipped_because_the_target_exists_is_said(project: Run) -> None:
    (project.root / HANDLERS / "list_alerts.py").write_text("# already here\n")
    project.edit_manifest(
        "- name: get_alerts",
        "- name: list_alerts\n    renamed_from: get_alerts\n    python_name: list_alerts",
    )
    project()
    assert f"Did not move {HANDLERS}/get_alerts.py → {HANDLERS}/list_alerts.py" in project.printed
    assert (project.root / HANDLERS / "list_alerts.py").read_text() == "# already here\n"
    assert (project.root / HANDLERS / "get_alerts.py").exists()


def test_swapping_python_names_swaps_the_files_in_two_phases(tmp_path: Path) -> None:
    run = Run(tmp_path / "demo")
    run.root.mkdir()
    run.manifest(TWO_TOOLS)
    run()
    alpha = (run.root / HANDLERS / "alpha.py").read_bytes() + b"# first's code\n"
    beta = (run.root / HANDLERS / "beta.py").read_bytes() + b"# second's code\n"
    (run.root / HANDLERS / "alpha.py").write_bytes(alpha)
    (run.root / HANDLERS / "beta.py").write_bytes(beta)
    run.edit_manifest("python_name: alpha", "python_name: gamma")
    run.edit_manifest("python_name: beta", "python_name: alpha")
    run.edit_manifest("python_name: gamma", "python_name: beta")
    run()
    # Each tool keeps its own code: first's handler is now beta.py, second's alpha.py.
    assert (run.root / HANDLERS / "beta.py").read_bytes() == alpha
    assert (run.root / HANDLERS / "alpha.py").read_bytes() == beta
    assert not list(run.root.rglob("*.mcpgen-*"))


def test_a_new_tool_does_not_take_over_another_tools_user_test(tmp_path: Path) -> None:
    run = Run(tmp_path / "demo")
    run.root.mkdir()
    run.manifest(
        "name: demo\nversion: 0.1.0\ntools:\n  - name: contract\n    input_schema: {type: object}\n"
    )
    run()
    mine = run.root / "tests/test_contract_tool.py"
    mine.write_text(mine.read_text() + "# contract's test, mine\n")
    run.edit_manifest(
        "tools:\n", "tools:\n  - name: contract_tool\n    input_schema: {type: object}\n"
    )
    run()
    assert mine.read_text().endswith("# contract's test, mine\n")
    state = prepare(run.root).summary
    assert state.empty
    report = run()
    assert report.up_to_date
    from mcpgen.write.state import load_state

    recorded = load_state(run.root)
    assert recorded is not None
    assert "tests/test_contract_tool.py" in recorded.tools["contract"].user_files
    assert "tests/test_contract_tool.py" not in recorded.tools["contract_tool"].user_files


def test_changes_inside_defs_are_in_the_plan(tmp_path: Path) -> None:
    run = Run(tmp_path / "demo")
    run.root.mkdir()
    run.manifest(
        "name: demo\nversion: 0.1.0\ntools:\n  - name: place\n    input_schema:\n"
        "      type: object\n      properties: {where: {$ref: '#/$defs/Address'}}\n"
        "      $defs:\n        Address:\n          type: object\n"
        "          properties: {street: {type: string}}\n"
    )
    run()
    run.edit_manifest("street: {type: string}", "street: {type: integer}")
    run()
    assert "argument `$defs.Address.street` changed type from string to integer" in run.printed
    assert "BREAKS the handler" in run.printed


def test_removing_output_schema_breaks_and_check_sees_the_import(project: Run) -> None:
    text = (project.root / "mcpgen.yaml").read_text()
    start = text.index("    output_schema:")
    end = text.index("    examples:")
    project.manifest(text[:start] + text[end:])
    prepared = prepare(project.root)
    assert "no longer declares an output schema" in {
        c.text.split(":")[0] for ch in prepared.summary.changed for c in ch.breaking
    }
    problems = check_handlers(project.root, prepared.manifest, prepared.plan)
    assert any("imports `GetForecastOutput`" in str(p) for p in problems), problems


def test_dangling_symlink_at_a_handler_path_is_kept(project: Run) -> None:
    project.edit_manifest("tools:\n", "tools:\n  - name: ping\n    input_schema: {type: object}\n")
    link = project.root / HANDLERS / "ping.py"
    os.symlink("nowhere/ping.py", link)
    project()
    assert link.is_symlink() and os.readlink(link) == "nowhere/ping.py"
    assert f"Kept the symlink {HANDLERS}/ping.py: it points to nothing" in project.printed


def test_merge_conflict_markers_say_how_to_resolve(project: Run) -> None:
    tools_md = project.root / "TOOLS.md"
    tools_md.write_text("<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n")
    with pytest.raises(McpgenError) as info:
        project()
    assert "TOOLS.md: has merge-conflict markers" in info.value.message
    assert "run `mcpgen generate`" in info.value.message


def test_plain_rename_gets_a_hint(project: Run) -> None:
    project.edit_manifest("- name: get_alerts", "- name: alerts_now")
    project()
    assert "alerts_now has the same schemas as the removed get_alerts" in project.printed
    assert "renamed_from: get_alerts" in project.printed


def test_re_added_tool_says_it_uses_the_old_handler(project: Run) -> None:
    handler = project.root / HANDLERS / "get_alerts.py"
    handler.write_text(handler.read_text() + "# my code\n")  # an unedited stub would go
    text = (project.root / "mcpgen.yaml").read_text()
    project.manifest(text[: text.index("  - name: get_alerts")])
    project()
    project.manifest(text)
    project()
    assert f"get_alerts: uses the existing {HANDLERS}/get_alerts.py" in project.printed


def test_check_on_a_hand_edit_does_not_advise_a_plain_generate(
    project: Run, capsys: pytest.CaptureFixture[str]
) -> None:
    tools_md = project.root / "TOOLS.md"
    tools_md.write_text(tools_md.read_text() + "my note\n")
    with pytest.raises(SystemExit):
        main(["generate", "--check", str(project.root)])
    stderr = capsys.readouterr().err
    assert "mcpgen generate --force" in stderr
    assert "Run `mcpgen generate` to update them" not in stderr


def test_add_tool_on_a_symlinked_manifest_edits_the_target(project: Run) -> None:
    real = project.root / "real.yaml"
    (project.root / "mcpgen.yaml").rename(real)
    (project.root / "mcpgen.yaml").symlink_to("real.yaml")
    with pytest.raises(SystemExit) as done:
        main(["add", "tool", "ping", "--dir", str(project.root)])
    assert done.value.code in (0, None)
    assert (project.root / "mcpgen.yaml").is_symlink()
    assert "- name: ping" in real.read_text()
