"""`mcpgen new`: scaffold a project, write its manifest, generate, and commit it.

All or nothing: if any step before the commit fails (or is interrupted), what this created
is removed again, so a failed `new` leaves no half-made project behind.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mcpgen.errors import ManifestInvalid, McpgenError, has_errors
from mcpgen.manifest import MANIFEST_FILENAME
from mcpgen.manifest.model import Manifest
from mcpgen.sync.engine import GenerateReport, Prepared
from mcpgen.write import transaction

FIRST_COMMIT = "New MCP server project from mcpgen"


@dataclass(frozen=True)
class StartingManifest:
    """The manifest a new project starts from, and its bytes exactly as they will be written."""

    manifest: Manifest
    content: bytes
    example: bool  # the example weather server, not a manifest the user gave


@dataclass(frozen=True)
class NewProject:
    """What `mcpgen new` made."""

    root: Path
    manifest: Manifest
    report: GenerateReport
    committed: bool
    git_problem: str | None = None  # git is installed but a step failed: not committed


def starting_manifest(name: str | None, manifest_path: Path | None) -> StartingManifest:
    """`manifest_path` (copied byte for byte: line endings, BOM, comments), else the example
    named after the last part of `name`. ManifestInvalid lists every problem of a bad one."""
    from mcpgen.example import example_manifest_text
    from mcpgen.manifest import check_manifest, check_text

    if name is not None and not Path(name).name.strip():
        raise McpgenError("the server name must not be empty")
    if manifest_path is not None:
        if not manifest_path.is_file():
            raise McpgenError(f"'{manifest_path}' does not exist")
        parsed, diagnostics = check_manifest(manifest_path)
        content, example = manifest_path.read_bytes(), False
    elif name is not None:
        text = example_manifest_text(Path(name).name)
        parsed, diagnostics = check_text(text, MANIFEST_FILENAME)
        content, example = text.encode("utf-8"), True
    else:
        raise McpgenError("give the server a name: `mcpgen new NAME` (or --manifest FILE)")
    if parsed is None or has_errors(diagnostics):
        raise ManifestInvalid(diagnostics)
    return StartingManifest(parsed, content, example)


def create_project(
    target: Path,
    start: StartingManifest,
    *,
    git: bool = True,
    on_plan: Callable[[Prepared | GenerateReport], None] | None = None,
) -> NewProject:
    """Make the project in `target` (absent or empty); `on_plan` as in `generate_project`."""
    from mcpgen.scaffold import ScaffoldAnswers, render_scaffold
    from mcpgen.sync import generate_project
    from mcpgen.sync.scaffold_update import record_template

    _refuse_non_empty(target)
    created = not target.exists()
    try:
        target.mkdir(parents=True, exist_ok=True)
        transaction.commit(target, [transaction.Step("write", MANIFEST_FILENAME, start.content)])
        render_scaffold(
            target, ScaffoldAnswers.from_manifest(start.manifest, example=start.example)
        )
        record_template(target)  # the base `mcpgen update` merges from
        report = generate_project(target, on_plan=on_plan)
    except BaseException:
        # A half-made project is worse than none: remove what this command created.
        _remove_created(target, created)
        raise
    committed, problem = _first_commit(target) if git else (False, None)
    return NewProject(target, start.manifest, report, committed, problem)


def _refuse_non_empty(target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise McpgenError(f"'{target}' exists and is not a directory")
    if target.is_dir() and any(target.iterdir()):
        raise McpgenError(f"'{target}' is not empty; choose a new directory (or --dir)")


def _remove_created(target: Path, created: bool) -> None:
    if created:
        shutil.rmtree(target, ignore_errors=True)
        return
    for child in target.iterdir():  # the directory was there, and empty: empty it again
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def _first_commit(target: Path) -> tuple[bool, str | None]:
    """Make the project a git repository with a first commit, unless git is missing or the
    target already lives inside a repository. (committed, why a git step failed)."""
    from mcpgen.git import git, git_available

    if not git_available():
        return False, None
    try:
        git(target, "rev-parse", "--is-inside-work-tree", isolated=False)
        return False, None  # inside the user's repository: theirs to commit
    except McpgenError:
        pass
    try:
        git(target, "init", "--quiet", isolated=False)
        git(target, "add", "--all", isolated=False)
        git(target, "commit", "--quiet", "--no-verify", "-m", FIRST_COMMIT, isolated=False)
    except McpgenError as exc:
        return False, exc.message
    return True, None
