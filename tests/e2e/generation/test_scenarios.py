"""Scenarios on a real project from `mcpgen new`, through the real CLI, with the project's own
tests run in a real venv after each step (in the style of copier's update tests)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.in_memory import snapshot_tree
from tests.support.project_venv import ProjectVenv, assert_lint_clean, run_mcpgen

HANDLERS = "src/wx/handlers"
ALERTS = f"{HANDLERS}/get_alerts.py"
MY_EDIT = "\n\ndef helper_i_wrote() -> str:  # written by hand, must survive\n    return 'mine'\n"


@pytest.fixture(scope="session")
def venv(project_venv: ProjectVenv) -> ProjectVenv:
    return project_venv


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pristine")
    run_mcpgen("new", "wx", "--no-input", "--no-git", cwd=root)
    return root / "wx"


@pytest.fixture
def fresh_wx(pristine: Path, tmp_path: Path) -> Path:
    target = tmp_path / "wx"
    shutil.copytree(pristine, target)
    mine = (target / ALERTS).read_text() + MY_EDIT
    (target / ALERTS).write_text(mine)
    (tmp_path / "my_get_alerts.py").write_text(mine)  # outside the project: the reference copy
    return target


def my_handler(project: Path) -> str:
    """What the user last wrote in the get_alerts handler."""
    return (project.parent / "my_get_alerts.py").read_text()


def generate(project: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = run_mcpgen("generate", str(project), *args, check=False)
    assert done.returncode == code, done.stderr
    return done


def edit(project: Path, old: str, new: str) -> None:
    manifest = project / "mcpgen.yaml"
    text = manifest.read_text()
    assert old in text, old
    manifest.write_text(text.replace(old, new, 1))


def assert_tests_pass(venv: ProjectVenv, project: Path, *args: str) -> None:
    done = venv.pytest(project, *args, with_src=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_add_a_tool(venv: ProjectVenv, fresh_wx: Path) -> None:
    edit(fresh_wx, "tools:\n", "tools:\n  - name: ping\n    input_schema: {type: object}\n")
    done = generate(fresh_wx)
    assert "+ ping: tool added" in done.stderr
    assert (fresh_wx / HANDLERS / "ping.py").is_file()
    assert (fresh_wx / ALERTS).read_text() == my_handler(fresh_wx)
    assert_tests_pass(venv, fresh_wx)


def test_remove_a_tool(venv: ProjectVenv, fresh_wx: Path) -> None:
    text = (fresh_wx / "mcpgen.yaml").read_text()
    (fresh_wx / "mcpgen.yaml").write_text(text[: text.index("  - name: get_alerts")])
    done = generate(fresh_wx)
    assert "- get_alerts: tool removed" in done.stderr
    assert f"Orphaned handler: {ALERTS}" in done.stderr
    assert (fresh_wx / ALERTS).read_text() == my_handler(fresh_wx)
    assert f"Orphaned handler: {ALERTS}" in generate(fresh_wx).stderr  # on every run
    # Its test was still the one `mcpgen new` wrote: it went with the tool. The user retires
    # the handler they edited (it imports a model that no longer exists).
    assert not (fresh_wx / "tests/test_get_alerts.py").exists()
    (fresh_wx / ALERTS).unlink()
    assert_tests_pass(venv, fresh_wx)


def test_remove_an_unedited_tool_leaves_a_green_project(venv: ProjectVenv, fresh_wx: Path) -> None:
    text = (fresh_wx / "mcpgen.yaml").read_text()
    start, end = text.index("  - name: get_forecast"), text.index("  - name: get_alerts")
    (fresh_wx / "mcpgen.yaml").write_text(text[:start] + text[end:])
    done = generate(fresh_wx)
    assert "- get_forecast: tool removed" in done.stderr
    assert not (fresh_wx / HANDLERS / "get_forecast.py").exists()
    assert not (fresh_wx / "tests/test_get_forecast.py").exists()
    assert "Orphaned" not in done.stderr
    assert (fresh_wx / ALERTS).read_text() == my_handler(fresh_wx)
    assert_tests_pass(venv, fresh_wx)
    assert_lint_clean(fresh_wx, venv)


def test_rename_a_tool_keeps_the_server_importable(venv: ProjectVenv, fresh_wx: Path) -> None:
    edit(fresh_wx, "- name: get_alerts", "- name: list_alerts\n    renamed_from: get_alerts")
    done = generate(fresh_wx)
    assert "keeps its Python name `get_alerts`" in done.stderr
    assert (fresh_wx / ALERTS).read_text() == my_handler(fresh_wx)
    assert "All 2 handlers match" in run_mcpgen("check", str(fresh_wx)).stderr
    assert_tests_pass(venv, fresh_wx)


def test_rename_a_tool_and_its_python_name(venv: ProjectVenv, fresh_wx: Path) -> None:
    user_test = (fresh_wx / "tests/test_get_alerts.py").read_text()
    edit(
        fresh_wx,
        "- name: get_alerts",
        "- name: list_alerts\n    renamed_from: get_alerts\n    python_name: list_alerts",
    )
    done = generate(fresh_wx)
    assert f"moves {ALERTS} → {HANDLERS}/list_alerts.py" in done.stderr
    assert (fresh_wx / HANDLERS / "list_alerts.py").read_text() == my_handler(fresh_wx)
    assert (fresh_wx / "tests/test_list_alerts.py").read_text() == user_test
    assert not (fresh_wx / ALERTS).exists()
    # The user follows the printed advice: rename the function and its argument type.
    for path in (fresh_wx / HANDLERS / "list_alerts.py", fresh_wx / "tests/test_list_alerts.py"):
        text = path.read_text().replace("get_alerts", "list_alerts")
        path.write_text(text.replace("GetAlertsInput", "ListAlertsInput"))
    assert "All 2 handlers match" in run_mcpgen("check", str(fresh_wx)).stderr
    assert_tests_pass(venv, fresh_wx)


def test_rename_keeping_the_handler_module(venv: ProjectVenv, fresh_wx: Path) -> None:
    edit(fresh_wx, "- name: get_alerts", "- name: get-alerts")
    done = generate(fresh_wx)
    assert "get_alerts → get-alerts: tool renamed (same handler module)" in done.stderr
    assert (fresh_wx / ALERTS).read_text() == my_handler(fresh_wx)
    assert_tests_pass(venv, fresh_wx)


def test_add_a_required_field(venv: ProjectVenv, fresh_wx: Path) -> None:
    edit(fresh_wx, "      required: [state]", "      required: [state, region]")
    edit(fresh_wx, "min_severity: {", "region: {type: string}\n        min_severity: {")
    edit(fresh_wx, "{state: CA}", "{state: CA, region: west}")
    edit(fresh_wx, "{state: TX, min_severity", "{state: TX, region: south, min_severity")
    done = generate(fresh_wx)
    assert "BREAKS the handler: argument `region` added, required" in done.stderr
    assert (fresh_wx / ALERTS).read_text() == my_handler(fresh_wx)
    # The summary said the handler breaks: its own tests may fail until the user
    # adapts them; the generated contract tests pass.
    assert_tests_pass(venv, fresh_wx, "tests/test_contract.py")


def test_change_a_field_type(venv: ProjectVenv, fresh_wx: Path) -> None:
    edit(fresh_wx, "days: {type: integer,", "days: {type: [integer, 'null'],")
    done = generate(fresh_wx)
    assert "BREAKS the handler: argument `days` changed type from integer to integer or null" in (
        done.stderr
    )
    assert (fresh_wx / ALERTS).read_text() == my_handler(fresh_wx)
    assert_tests_pass(venv, fresh_wx)


def test_change_only_a_description(venv: ProjectVenv, fresh_wx: Path) -> None:
    edit(fresh_wx, "Active weather alerts for a US state", "Weather alerts of one US state")
    done = generate(fresh_wx)
    assert "description changed" in done.stderr and "BREAKS" not in done.stderr
    assert "TOOLS.md" in done.stderr
    assert_tests_pass(venv, fresh_wx)


def test_hand_edited_generated_file_is_refused_then_forced(
    venv: ProjectVenv, fresh_wx: Path
) -> None:
    tools_py = fresh_wx / "src/wx/_generated/tools.py"
    tools_py.write_text(tools_py.read_text() + "# my tweak\n")
    edit(fresh_wx, "Active weather alerts for a US state", "Weather alerts of one US state")
    before = snapshot_tree(fresh_wx)
    done = generate(fresh_wx, code=3)
    assert "src/wx/_generated/tools.py: edited by hand" in done.stderr and "--force" in done.stderr
    assert "Traceback" not in done.stderr
    assert snapshot_tree(fresh_wx) == before
    generate(fresh_wx, "--force")
    assert (fresh_wx / "src/wx/_generated/tools.py.orig").read_text().endswith("# my tweak\n")
    assert_tests_pass(venv, fresh_wx)


def test_invalid_manifest_after_a_valid_one_writes_nothing(fresh_wx: Path) -> None:
    edit(fresh_wx, "state: {type: string,", "state: {type: strin,")
    before = snapshot_tree(fresh_wx)
    done = generate(fresh_wx, code=1)
    assert "mcpgen.yaml:" in done.stderr and "Traceback" not in done.stderr
    assert snapshot_tree(fresh_wx) == before


def test_two_runs_in_a_row_and_check(fresh_wx: Path) -> None:
    generate(fresh_wx)  # the copied project's host snippets point elsewhere: refreshed once
    done = generate(fresh_wx)
    assert "Up to date: nothing to write." in done.stderr
    generate(fresh_wx, "--check")
    edit(fresh_wx, "Active weather alerts for a US state", "Weather alerts of one US state")
    before = snapshot_tree(fresh_wx)
    stale = generate(fresh_wx, "--check", code=1)
    assert "TOOLS.md: would be updated" in stale.stderr
    diff = generate(fresh_wx, "--diff")
    assert "+++ b/TOOLS.md" in diff.stdout
    assert snapshot_tree(fresh_wx) == before


def test_check_command_finds_a_broken_handler(fresh_wx: Path) -> None:
    (fresh_wx / ALERTS).write_text(
        my_handler(fresh_wx).replace("args: GetAlertsInput", "args: dict")
    )
    done = run_mcpgen("check", str(fresh_wx), check=False)
    assert done.returncode == 1
    assert "is annotated `dict`; the dispatcher passes a `GetAlertsInput`" in done.stderr


def test_add_tool_command_keeps_the_manifest_formatting(venv: ProjectVenv, fresh_wx: Path) -> None:
    before = (fresh_wx / "mcpgen.yaml").read_text()
    run_mcpgen("add", "tool", "ping", "--description", "Answer pong", "--dir", str(fresh_wx))
    after = (fresh_wx / "mcpgen.yaml").read_text()
    assert after.startswith(before.rstrip("\n") + "\n")  # every original byte, in place
    assert "  - name: ping\n    description: Answer pong\n" in after
    assert (fresh_wx / HANDLERS / "ping.py").is_file()
    assert_tests_pass(venv, fresh_wx)
