"""`mcpgen update`: copier's three-way merge of scaffold files, from a recorded old template."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from mcpgen.commands.update import (
    RECORD_PATH,
    TemplateRecord,
    current_template,
    render_record,
)
from tests.support.project_venv import run_mcpgen

OLD_LINE = "Made by an older mcpgen.\n"


def git(root: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def made_by_new(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`mcpgen new wx`, run once: each test edits a copy (the project holds no path of its
    own, so a copy is the same project)."""
    folder = tmp_path_factory.mktemp("new")
    run_mcpgen("new", "wx", "--no-input", "--no-git", cwd=folder)
    return folder / "wx"


@pytest.fixture
def older_project(made_by_new: Path, tmp_path: Path) -> Path:
    """A project made by an "older" mcpgen whose README template had one more line."""
    root = tmp_path / "wx"
    shutil.copytree(made_by_new, root, symlinks=True)
    files = dict(current_template().files)
    files["README.md.jinja"] = files["README.md.jinja"].replace("\n", "\n" + OLD_LINE, 1)
    (root / RECORD_PATH).write_text(render_record(TemplateRecord("0.0.1", files)))
    readme = root / "README.md"
    readme.write_text(readme.read_text().replace("\n", "\n" + OLD_LINE, 1))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "project from mcpgen 0.0.1")
    return root


def test_update_merges_template_changes_and_keeps_user_edits(older_project: Path) -> None:
    pyproject = older_project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n[tool.my-own]\nkeep = true\n")
    answers = (older_project / ".copier-answers.yml").read_text()
    git(older_project, "commit", "-qam", "my edit")
    done = run_mcpgen("update", str(older_project))
    assert "updated   README.md" in done.stderr
    assert OLD_LINE not in (older_project / "README.md").read_text()
    assert pyproject.read_text().endswith("[tool.my-own]\nkeep = true\n")
    assert (
        older_project / ".copier-answers.yml"
    ).read_text() == answers  # still machine-independent
    git(older_project, "commit", "-qam", "update")
    assert "up to date" in run_mcpgen("update", str(older_project)).stderr


def test_conflicts_are_reported_not_resolved(older_project: Path) -> None:
    readme = older_project / "README.md"
    readme.write_text(readme.read_text().replace(OLD_LINE, "My own line.\n"))
    git(older_project, "commit", "-qam", "my edit")
    done = run_mcpgen("update", str(older_project), check=False)
    assert done.returncode == 1
    assert "README.md" in done.stderr and "merge conflicts" in done.stderr
    assert "<<<<<<<" in readme.read_text()


def test_dirty_tree_is_refused(older_project: Path) -> None:
    (older_project / "README.md").write_text("uncommitted\n")
    done = run_mcpgen("update", str(older_project), check=False)
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


def test_update_never_resurrects_a_moved_handler(older_project: Path) -> None:
    manifest = older_project / "mcpgen.yaml"
    manifest.write_text(
        manifest.read_text().replace(
            "- name: get_alerts",
            "- name: list_alerts\n    renamed_from: get_alerts\n    python_name: list_alerts",
            1,
        )
    )
    run_mcpgen("generate", str(older_project))
    assert (older_project / "src/wx/handlers/list_alerts.py").exists()

    def older(files: dict[str, str]) -> None:  # the example handler changed since
        files[HANDLER_TEMPLATE] = files[HANDLER_TEMPLATE] + "# older example\n"

    _older_template(older_project, older)
    done = run_mcpgen("update", str(older_project))
    assert "Traceback" not in done.stderr
    assert not (older_project / "src/wx/handlers/get_alerts.py").exists()
    assert not (older_project / "tests/test_get_alerts.py").exists()
    assert OLD_LINE not in (older_project / "README.md").read_text()  # the scaffold still merged


def test_update_keeps_files_the_new_template_dropped(older_project: Path) -> None:
    tides = older_project / "src/wx/handlers/get_tides.py"
    tides.write_text("def get_tides(args):  # mine\n    return 'high'\n")
    (older_project / "NOTES.md").write_text("Notes from the template, then mine.\n")

    def older(files: dict[str, str]) -> None:  # the old template had both files
        files["src/{{ package }}/handlers/{% if example %}get_tides.py{% endif %}.jinja"] = "x\n"
        files["NOTES.md.jinja"] = "Notes from the template.\n"

    _older_template(older_project, older)
    done = run_mcpgen("update", str(older_project))
    assert "Traceback" not in done.stderr
    assert tides.read_text() == "def get_tides(args):  # mine\n    return 'high'\n"
    assert (older_project / "NOTES.md").read_text() == "Notes from the template, then mine.\n"
    assert "kept      NOTES.md: the new template no longer has it" in done.stderr


def _without_gitignore(files: dict[str, str]) -> None:
    del files[".gitignore"]  # the old template made no .gitignore: today's adds one


def test_a_file_the_new_template_adds_keeps_the_users_own_version(older_project: Path) -> None:
    mine = b"# my own ignores\r\n*.sqlite\n"
    (older_project / ".gitignore").write_bytes(mine)
    _older_template(older_project, _without_gitignore)
    done = run_mcpgen("update", str(older_project))
    assert (older_project / ".gitignore").read_bytes() == mine
    assert "kept      .gitignore: yours; the new template's .gitignore was not applied" in (
        done.stderr
    )
    assert "<<<<<<<" not in done.stderr and "Traceback" not in done.stderr
    assert OLD_LINE not in (older_project / "README.md").read_text()  # the rest still merged


def test_a_file_identical_to_the_one_the_new_template_adds_is_left_alone(
    older_project: Path,
) -> None:
    before = (older_project / ".gitignore").read_bytes()  # as today's template makes it
    _older_template(older_project, _without_gitignore)
    done = run_mcpgen("update", str(older_project))
    assert (older_project / ".gitignore").read_bytes() == before
    assert ".gitignore" not in done.stderr


GENERATE_CREATED = ("tests/conftest.py", ".dockerignore", "src/wx/__init__.py", "NOTES.md")


def test_files_a_newer_template_adds_never_get_conflict_markers(
    older_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A newer template that adds files `mcpgen generate` created once (never edited since)
    # or that the user wrote: each stays as it is, and is reported.
    from mcpgen.commands import update as scaffold_update
    from mcpgen.scaffold.template import template_dir

    (older_project / "NOTES.md").write_text("my notes\n")
    git(older_project, "add", "-A")
    git(older_project, "commit", "-qm", "notes")
    before = {path: (older_project / path).read_bytes() for path in GENERATE_CREATED}
    newer = tmp_path / "newer-template"
    shutil.copytree(template_dir(), newer)
    (newer / "tests/conftest.py.jinja").write_text("# the template's conftest\n")
    (newer / ".dockerignore").write_text(".env\n")
    (newer / "src/{{ package }}/__init__.py.jinja").write_text('"""The template\'s."""\n')
    (newer / "NOTES.md").write_text("The template's notes.\n")
    monkeypatch.setattr(scaffold_update, "_template_dir", lambda: newer)

    result = scaffold_update.update_scaffold(older_project)
    assert {path: (older_project / path).read_bytes() for path in GENERATE_CREATED} == before
    assert set(result.kept_own) == set(GENERATE_CREATED)
    assert result.conflicts == ()
    assert "README.md" in result.changed  # the scaffold's own change still merged


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


@pytest.mark.parametrize("where", [RECORD_PATH, ".mcpgen/state.json"])
def test_an_older_mcpgen_refuses_to_downgrade(older_project: Path, where: str) -> None:
    path = older_project / where
    record = json.loads(path.read_text())
    record["mcpgen_version"] = "99.1.0"
    path.write_text(json.dumps(record))
    git(older_project, "commit", "-qam", "written by a newer mcpgen")
    before = _snapshot(older_project)
    done = run_mcpgen("update", str(older_project), check=False)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"last written by mcpgen 99.1.0 ({where})" in done.stderr
    assert "--allow-downgrade" in done.stderr
    assert _snapshot(older_project) == before

    forced = run_mcpgen("update", "--allow-downgrade", str(older_project))
    assert "updated   README.md" in forced.stderr


def _answers_edit(project: Path, old: str, new: str) -> None:
    answers = project / ".copier-answers.yml"
    text = answers.read_text()
    assert old in text
    answers.write_text(text.replace(old, new, 1))
    git(project, "commit", "-qam", "answers edited")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("_src_path: mcpgen:project", "_src_path: /tmp/elsewhere", "_src_path is '/tmp/elsewhere'"),
        ("package: wx", "package: ../../../../escaped", "answer package: '../../../../escaped'"),
        ("package: wx", "package: a/b", "used in file names"),
        ("package: wx", "package: [1, 2]", "answer 'package' must be a plain value"),
        ("name: wx", "name: 'wx\n  - : [", ".copier-answers.yml:"),
    ],
)
def test_hostile_answers_are_refused_in_one_line(
    older_project: Path, old: str, new: str, message: str
) -> None:
    _answers_edit(older_project, old, new)
    before = _snapshot(older_project)
    outside = sorted(older_project.parent.parent.iterdir())
    done = run_mcpgen("update", str(older_project), check=False)
    assert done.returncode == 1
    assert message in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert _snapshot(older_project) == before
    assert sorted(older_project.parent.parent.iterdir()) == outside


def test_a_garbage_commit_in_the_answers_is_ignored(older_project: Path) -> None:
    _answers_edit(older_project, "_src_path:", "_commit: |\n  not a\n  commit\n_src_path:")
    done = run_mcpgen("update", str(older_project))
    assert "updated   README.md" in done.stderr
    assert "_commit" not in (older_project / ".copier-answers.yml").read_text()


def test_a_recorded_template_whose_file_names_compute_paths_is_refused(older_project: Path) -> None:
    def older(files: dict[str, str]) -> None:
        files["{{ '..' }}/{{ '..' }}/escaped.jinja"] = "x\n"

    _older_template(older_project, older)
    done = run_mcpgen("update", str(older_project), check=False)
    assert done.returncode == 1
    assert "refusing the template file" in done.stderr and "Traceback" not in done.stderr
    assert not (older_project.parent.parent / "escaped").exists()


def test_update_from_a_subfolder_finds_the_project(older_project: Path) -> None:
    done = run_mcpgen("update", cwd=older_project / "src/wx/handlers")
    assert f"Using the project in {older_project.resolve()} (3 folders up)" in done.stderr
    assert OLD_LINE not in (older_project / "README.md").read_text()


def test_a_symlinked_scaffold_file_never_leads_the_merge_out_of_the_project(
    older_project: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.md"
    victim.write_text("someone else's file\n")
    readme = older_project / "README.md"
    readme.unlink()
    readme.symlink_to(victim)
    git(older_project, "add", "-A")
    git(older_project, "commit", "-qm", "README elsewhere")
    done = run_mcpgen("update", str(older_project))
    assert "Traceback" not in done.stderr
    assert victim.read_text() == "someone else's file\n"
    assert readme.is_symlink()
    assert "skipped   README.md" in done.stderr


def test_a_symlinked_answers_file_is_refused(older_project: Path, tmp_path: Path) -> None:
    victim = tmp_path / "settings.yml"
    victim.write_text("package: wx\nname: wx\n")
    answers = older_project / ".copier-answers.yml"
    answers.unlink()
    answers.symlink_to(victim)
    git(older_project, "add", "-A")
    git(older_project, "commit", "-qm", "answers elsewhere")
    done = run_mcpgen("update", str(older_project), check=False)
    assert done.returncode == 1
    assert ".copier-answers.yml is a symlink" in done.stderr and "Traceback" not in done.stderr
    assert victim.read_text() == "package: wx\nname: wx\n"


@pytest.mark.parametrize(
    "setting",
    ["_tasks:\n  - touch {marker}\n", "_answers_file: ../../../{marker}\n"],
)
def test_a_recorded_template_with_unsafe_settings_is_refused_in_one_line(
    older_project: Path, tmp_path: Path, setting: str
) -> None:
    marker = tmp_path / "ran"

    def older(files: dict[str, str]) -> None:
        files["copier.yml"] += setting.format(marker=marker)

    _older_template(older_project, older)
    before = _snapshot(older_project)
    done = run_mcpgen("update", str(older_project), check=False)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"copier could not merge the template recorded in {RECORD_PATH}" in done.stderr
    assert not marker.exists()
    assert _snapshot(older_project) == before


def test_a_garbage_recorded_version_is_one_line(older_project: Path) -> None:
    path = older_project / RECORD_PATH
    record = json.loads(path.read_text())
    record["mcpgen_version"] = "not-a-version; rm -rf /"
    path.write_text(json.dumps(record))
    git(older_project, "commit", "-qam", "garbage")
    done = run_mcpgen("update", str(older_project), check=False)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"{RECORD_PATH} records mcpgen version" in done.stderr


def test_answers_without_a_source_get_the_marker_and_update_again(older_project: Path) -> None:
    _answers_edit(older_project, "_src_path: mcpgen:project\n", "")
    run_mcpgen("update", str(older_project))
    assert "_src_path: mcpgen:project\n" in (older_project / ".copier-answers.yml").read_text()
    git(older_project, "commit", "-qam", "update")
    assert "up to date" in run_mcpgen("update", str(older_project)).stderr
