"""`mcpgen update`: copier's three-way merge of scaffold files, from a recorded old template."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from mcpgen.sync.scaffold_update import (
    RECORD_PATH,
    TemplateRecord,
    current_template,
    render_record,
)
from tests.e2e.helpers import run_mcpgen

pytestmark = pytest.mark.e2e

OLD_LINE = "Made by an older mcpgen.\n"


def git(root: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project made by an "older" mcpgen whose README template had one more line."""
    run_mcpgen("new", "wx", "--no-input", "--no-git", cwd=tmp_path)
    root = tmp_path / "wx"
    files = dict(current_template().files)
    files["README.md.jinja"] = files["README.md.jinja"].replace("\n", "\n" + OLD_LINE, 1)
    (root / RECORD_PATH).write_text(render_record(TemplateRecord("0.0.1", files)))
    readme = root / "README.md"
    readme.write_text(readme.read_text().replace("\n", "\n" + OLD_LINE, 1))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "project from mcpgen 0.0.1")
    return root


def test_update_merges_template_changes_and_keeps_user_edits(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n[tool.my-own]\nkeep = true\n")
    answers = (project / ".copier-answers.yml").read_text()
    git(project, "commit", "-qam", "my edit")
    done = run_mcpgen("update", str(project))
    assert "updated   README.md" in done.stderr
    assert OLD_LINE not in (project / "README.md").read_text()
    assert pyproject.read_text().endswith("[tool.my-own]\nkeep = true\n")
    assert (project / ".copier-answers.yml").read_text() == answers  # still machine-independent
    git(project, "commit", "-qam", "update")
    assert "up to date" in run_mcpgen("update", str(project)).stderr


def test_conflicts_are_reported_not_resolved(project: Path) -> None:
    readme = project / "README.md"
    readme.write_text(readme.read_text().replace(OLD_LINE, "My own line.\n"))
    git(project, "commit", "-qam", "my edit")
    done = run_mcpgen("update", str(project), check=False)
    assert done.returncode == 1
    assert "README.md" in done.stderr and "merge conflicts" in done.stderr
    assert "<<<<<<<" in readme.read_text()


def test_dirty_tree_is_refused(project: Path) -> None:
    (project / "README.md").write_text("uncommitted\n")
    done = run_mcpgen("update", str(project), check=False)
    assert done.returncode == 1
    assert "uncommitted changes (README.md)" in done.stderr and "Traceback" not in done.stderr


def _older_template(project: Path, change: Callable[[dict[str, str]], None]) -> None:
    """Record, as the project's base, a template that `change` made different from today's."""
    record = json.loads((project / RECORD_PATH).read_text())
    files = dict(record["template"])
    change(files)
    (project / RECORD_PATH).write_text(render_record(TemplateRecord("0.0.1", files)))
    git(project, "add", "-A")
    git(project, "commit", "-qm", "older template")


HANDLER_TEMPLATE = "src/{{ package }}/handlers/{% if example %}get_alerts.py{% endif %}.jinja"


def test_update_never_resurrects_a_moved_handler(project: Path) -> None:
    manifest = project / "mcpgen.yaml"
    manifest.write_text(
        manifest.read_text().replace(
            "- name: get_alerts",
            "- name: list_alerts\n    renamed_from: get_alerts\n    python_name: list_alerts",
            1,
        )
    )
    run_mcpgen("generate", str(project))
    assert (project / "src/wx/handlers/list_alerts.py").exists()

    def older(files: dict[str, str]) -> None:  # the example handler changed since
        files[HANDLER_TEMPLATE] = files[HANDLER_TEMPLATE] + "# older example\n"

    _older_template(project, older)
    done = run_mcpgen("update", str(project))
    assert "Traceback" not in done.stderr
    assert not (project / "src/wx/handlers/get_alerts.py").exists()
    assert not (project / "tests/test_get_alerts.py").exists()
    assert OLD_LINE not in (project / "README.md").read_text()  # the scaffold still merged


def test_update_keeps_files_the_new_template_dropped(project: Path) -> None:
    tides = project / "src/wx/handlers/get_tides.py"
    tides.write_text("def get_tides(args):  # mine\n    return 'high'\n")
    (project / "NOTES.md").write_text("Notes from the template, then mine.\n")

    def older(files: dict[str, str]) -> None:  # the old template had both files
        files["src/{{ package }}/handlers/{% if example %}get_tides.py{% endif %}.jinja"] = "x\n"
        files["NOTES.md.jinja"] = "Notes from the template.\n"

    _older_template(project, older)
    done = run_mcpgen("update", str(project))
    assert "Traceback" not in done.stderr
    assert tides.read_text() == "def get_tides(args):  # mine\n    return 'high'\n"
    assert (project / "NOTES.md").read_text() == "Notes from the template, then mine.\n"
    assert "kept      NOTES.md: the new template no longer has it" in done.stderr
