"""`mcpgen diff` against a real git repository: the ref is read from git, never checked out."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.cli_runner import run_cli

MANIFEST = """\
# The notes server.
name: notes
version: 1.4.0  # bumped by hand, or by mcpgen diff --bump
tools:
  - name: search
    description: Search notes.
    input_schema:
      type: object
      properties:
        query: {type: string, maxLength: 100}
        limit: {type: integer, minimum: 1}
      required: [query]
      additionalProperties: false
  - name: ping
    description: Ping.
    input_schema: {type: object}
"""


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository whose one commit holds MANIFEST."""
    git(tmp_path, "init", "-q", ".")
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    git(tmp_path, "add", "mcpgen.yaml")
    git(tmp_path, "commit", "-q", "-m", "first")
    return tmp_path


def edit(repo: Path, old: str, new: str) -> None:
    path = repo / "mcpgen.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("maxLength: 100", "maxLength: 10", ("breaking: tool `search`: argument", "2.0.0", 1)),
        ("maxLength: 100", "maxLength: 200", ("compatible: tool `search`: argument", "1.5.0", 0)),
        ("required: [query]", "required: [query, limit]", ("breaking:", "2.0.0", 1)),
        ("Ping.", "Answers pong.", ("compatible: tool `ping`: description changed", "1.5.0", 0)),
        (
            "  - name: ping\n",
            "  - name: pong\n    renamed_from: ping\n",
            ("compatible:", "1.5.0", 0),
        ),
        ("  - name: ping\n", "  - name: pong\n", ("breaking: tool `ping`: removed", "2.0.0", 1)),
        ("version: 1.4.0", "version: 2.0.0", ("", "1.4.0", 0)),
    ],
)
def test_each_change_prints_its_class_and_the_version(
    repo: Path, old: str, new: str, expected: tuple[str, str, int]
) -> None:
    first_line, suggested, code = expected
    edit(repo, old, new)
    done = run_cli("diff", cwd=repo)
    lines = done.stdout.splitlines()
    assert done.returncode == code, done.stderr
    assert lines[-1] == f"suggested version: {suggested}"
    assert lines[0].startswith(first_line)
    assert all(line.startswith(("breaking: ", "compatible: ")) for line in lines[:-1])


def test_a_breaking_change_passes_once_the_major_version_is_raised(repo: Path) -> None:
    edit(repo, "maxLength: 100", "maxLength: 10")
    assert run_cli("diff", cwd=repo).returncode == 1
    edit(repo, "version: 1.4.0", "version: 2.0.0")
    done = run_cli("diff", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "suggested version: 2.0.0"


def test_diff_changes_nothing_in_the_repository(repo: Path) -> None:
    edit(repo, "maxLength: 100", "maxLength: 10")
    before = (git(repo, "status", "--porcelain"), git(repo, "rev-parse", "HEAD"))
    text = (repo / "mcpgen.yaml").read_text(encoding="utf-8")
    run_cli("diff", cwd=repo)
    assert (git(repo, "status", "--porcelain"), git(repo, "rev-parse", "HEAD")) == before
    assert (repo / "mcpgen.yaml").read_text(encoding="utf-8") == text


def test_against_an_older_ref(repo: Path) -> None:
    edit(repo, "  - name: ping\n", "  - name: pong\n")
    git(repo, "commit", "-q", "-am", "rename")
    assert run_cli("diff", cwd=repo).stdout.splitlines() == ["suggested version: 1.4.0"]
    done = run_cli("diff", "--against", "HEAD~1", cwd=repo)
    assert done.returncode == 1
    assert "breaking: tool `ping`: removed" in done.stdout


def test_bump_writes_the_version_keeping_comments_and_server_json_follows(repo: Path) -> None:
    edit(repo, "maxLength: 100", "maxLength: 10")
    done = run_cli("diff", "--bump", cwd=repo)
    assert done.returncode == 0, done.stderr
    text = (repo / "mcpgen.yaml").read_text(encoding="utf-8")
    assert text == MANIFEST.replace("maxLength: 100", "maxLength: 10").replace(
        "version: 1.4.0", "version: 2.0.0"
    )
    server = json.loads((repo / "server.json").read_text(encoding="utf-8"))
    assert server["version"] == "2.0.0"
    assert run_cli("diff", cwd=repo).returncode == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--against", "no-such-ref"), "'no-such-ref' is not a commit in this repository"),
        (("--against", "--help-me"), "'--help-me' is not a commit in this repository"),
    ],
)
def test_a_bad_ref_is_one_clear_line(repo: Path, args: tuple[str, ...], message: str) -> None:
    done = run_cli("diff", *args, cwd=repo)
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: {message}"


def test_a_manifest_missing_at_the_ref(repo: Path) -> None:
    (repo / "sub").mkdir()
    (repo / "sub" / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    done = run_cli("diff", "sub", cwd=repo)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: sub/mcpgen.yaml does not exist at HEAD"


def test_outside_a_repository(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    done = run_cli("diff", env={"GIT_CEILING_DIRECTORIES": str(tmp_path.parent)}, cwd=tmp_path)
    assert done.returncode == 2
    assert "is not inside a git repository" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_project_in_a_subfolder_reads_its_files_at_the_ref(tmp_path: Path) -> None:
    """The manifest at the ref loads with the files it names as they were then (unpacked
    from git, not read from the working tree)."""
    git(tmp_path, "init", "-q", ".")
    project = tmp_path / "servers" / "notes"
    project.mkdir(parents=True)
    resource = "resources:\n  - {uri: 'notes://readme', name: readme, file: README.txt}\n"
    (project / "mcpgen.yaml").write_text(MANIFEST + resource, encoding="utf-8")
    (project / "README.txt").write_text("hello\n", encoding="utf-8")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    (project / "README.txt").unlink()  # gone from the working tree, still at HEAD
    edit(project, "resources:\n  - {uri: 'notes://readme', name: readme, file: README.txt}\n", "")
    done = run_cli("diff", "servers/notes", cwd=tmp_path)
    assert done.stdout.splitlines() == [
        "breaking: resource `notes://readme`: removed: clients reading it fail",
        "suggested version: 2.0.0",
    ]
    assert done.returncode == 1


PETS = Path(__file__).parents[1] / "unit" / "openapi" / "specs" / "pets.yaml"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "{name: limit, in: query, schema: {type: integer, maximum: 100}}",
            "{name: limit, in: query, required: true, schema: {type: integer, maximum: 100}}",
            "breaking: tool `list_pets`: argument `limit` is now required: clients that leave "
            "it out are refused",
        ),
        (
            "{name: limit, in: query, schema: {type: integer, maximum: 100}}",
            "{name: limit, in: query, schema: {type: integer, maximum: 500}}",
            "compatible: tool `list_pets`: argument `limit`: maximum 100 → 500 (wider)",
        ),
    ],
)
def test_an_imported_spec_is_compared_as_it_was_at_the_ref(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    done = run_cli("import", "openapi", str(PETS), "--no-git", "--no-input", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    project = tmp_path / "pet"
    git(project, "init", "-q", ".")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "imported")
    spec = project / "openapi" / "pets.yaml"
    text = spec.read_text(encoding="utf-8")
    assert old in text
    spec.write_text(text.replace(old, new), encoding="utf-8")
    done = run_cli("diff", cwd=project)
    suggested = "0.2.0" if expected.startswith("breaking") else "0.1.1"
    assert done.stdout.splitlines() == [expected, f"suggested version: {suggested}"]
