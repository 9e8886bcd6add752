"""`mcpgen update`: copier's three-way merge of scaffold files, from a recorded old template."""

from __future__ import annotations

import subprocess
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
