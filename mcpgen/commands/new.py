"""`mcpgen new`: scaffold a project, write its manifest, generate, and commit it.

All or nothing: if any step up to the git commit fails or is interrupted (Ctrl-C, SIGTERM,
SIGHUP), what this created is removed again, so a failed `new` leaves no half-made project
behind. "What this created" is exact: the files its commits wrote (`transaction.recording`),
each removed only while it still holds those bytes, the folders made for them when empty,
`.mcpgen/` and the `.git` it initialised. A file the user put into the folder meanwhile stays.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mcpgen.errors import ManifestInvalid, McpgenError, has_errors
from mcpgen.generation.report import GenerateReport, Prepared
from mcpgen.manifest import MANIFEST_FILENAME
from mcpgen.manifest.model import Manifest
from mcpgen.write import journal, transaction

if TYPE_CHECKING:
    from mcpgen.scaffold.template import ScaffoldAnswers

FIRST_COMMIT = "New MCP server project from mcpgen"


@dataclass(frozen=True)
class StartingManifest:
    """The manifest a new project starts from, and its bytes exactly as they will be written."""

    manifest: Manifest
    content: bytes
    example: bool  # the example weather server, not a manifest the user gave
    files: tuple[tuple[str, bytes], ...] = ()  # project files the manifest reads (an OpenAPI spec)


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
    from mcpgen.manifest import check_manifest, check_text
    from mcpgen.scaffold.example import example_manifest_text

    if name is not None and not Path(name).name.strip():
        raise McpgenError("the server name must not be empty")
    if name is not None and manifest_path is None and not _is_utf8(Path(name).name):
        shown = os.fsencode(Path(name).name).decode("utf-8", "backslashreplace")
        raise McpgenError(
            f"the server name {shown} is not valid UTF-8; give a UTF-8 name "
            "(`--dir` can still name any folder)"
        )
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


def _is_utf8(text: str) -> bool:
    """False for a command-line word whose bytes were not UTF-8 (Python keeps them as lone
    surrogates, which no manifest or generated file can hold)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def create_project(
    target: Path,
    start: StartingManifest,
    *,
    git: bool = True,
    on_plan: Callable[[Prepared | GenerateReport], None] | None = None,
) -> NewProject:
    """Make the project in `target` (absent or empty); `on_plan` as in `generate_project`.

    Interrupted (Ctrl-C, SIGTERM, SIGHUP) or failed before the end, it removes what it
    created and nothing else: a file the user put in `target` meanwhile stays, and so does
    a file mcpgen wrote that the user has changed since. The error says what was done.
    """
    from mcpgen.commands.update import record_template
    from mcpgen.generation import generate_project

    _refuse_non_empty(target)
    made = _Made(target, [p for p in (target, *target.parents) if not p.exists()])
    with transaction.signals_interrupt(), transaction.recording(target) as written:
        try:
            target.mkdir(parents=True, exist_ok=True)
            manifest = transaction.Step("write", MANIFEST_FILENAME, start.content)
            read = [transaction.Step("write", path, content) for path, content in start.files]
            transaction.commit(target, [manifest, *read])
            _scaffold(target, start)
            record_template(target)  # the base `mcpgen update` merges from
            report = generate_project(target, on_plan=on_plan)
            made.git = git
            committed, problem = _first_commit(target) if git else (False, None)
        except BaseException as exc:
            # A half-made project is worse than none: remove what this command created.
            said = _remove_made(made, written)
            _raise_after_removal(exc, said)
            raise
    return NewProject(target, start.manifest, report, committed, problem)


def _remove_made(made: _Made, written: transaction.Written) -> str:
    """`made.remove`, which no signal interrupts; a second Ctrl-C that came meanwhile is
    dropped once it is done, so that what was removed is still said."""
    said = ""
    try:
        with transaction.signals_blocked():
            said = made.remove(written)
    except (KeyboardInterrupt, transaction.Signalled):
        pass
    return said


def _scaffold(target: Path, start: StartingManifest) -> None:
    """Render the copier template aside, then create its files in `target` in one commit:
    a file the user saves into `target` meanwhile is never replaced, and an interrupted
    render leaves nothing in `target`."""
    from mcpgen.scaffold.template import ScaffoldAnswers

    answers = ScaffoldAnswers.from_manifest(start.manifest, example=start.example)
    with tempfile.TemporaryDirectory(prefix="mcpgen-scaffold-") as staging:
        _render_aside(Path(staging), answers)
        steps = [
            transaction.Step("create", file.relative_to(staging).as_posix(), file.read_bytes())
            for file in sorted(Path(staging).rglob("*"))
            if file.is_file()
        ]
    transaction.commit(target, steps)


def _render_aside(staging: Path, answers: ScaffoldAnswers) -> None:
    """copier's run into `staging`; its failures (a full disk where temporary files go, a
    `git` it runs that fails) are one line, not copier's traceback."""
    from mcpgen.scaffold.template import render_scaffold

    try:
        render_scaffold(staging, answers)
    except Exception as exc:  # copier's own errors too: reported, never a traceback
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else _first_line(exc)
        raise McpgenError(
            f"cannot render the project template in {staging.parent}: {reason}"
        ) from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@dataclass
class _Made:
    """What `mcpgen new` made beyond the files its commits record, to remove it again."""

    target: Path
    folders: list[Path]  # `target` and its parents that did not exist, innermost first
    git: bool = False  # `git init` may have started: the `.git` folder is this run's

    def remove(self, written: transaction.Written) -> str:
        """Remove what this run created; what was done, in words."""
        removed, changed = _remove_written(self.target, written)
        for own in [".mcpgen", *([".git"] if self.git else [])]:
            shutil.rmtree(self.target / own, ignore_errors=True)
        for folder in [*(self.target / d for d in reversed(written.dirs)), *self.folders]:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if empty: what the user put there stays
        return _removal_note(self.target, removed, changed, _left(self.target))


def _remove_written(target: Path, written: transaction.Written) -> tuple[int, list[str]]:
    """Delete each file mcpgen wrote that still holds exactly its bytes; (how many, the paths
    of those changed since, which stay)."""
    removed, changed = 0, []
    for path, sha in written.files.items():
        file = target / path
        if journal.sha_of(file) == sha:
            file.unlink()
            removed += 1
        elif os.path.lexists(file):
            changed.append(path)
    return removed, changed


def _left(target: Path) -> list[str]:
    if not target.is_dir():
        return []
    return sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if not p.is_dir())


def _removal_note(target: Path, removed: int, changed: list[str], left: list[str]) -> str:
    if not target.exists():
        return f"removed {target} and the {removed} file(s) mcpgen had written in it"
    note = f"removed the {removed} file(s) mcpgen had written in {target}"
    if left:
        shown = ", ".join(left[:5]) + (f" and {len(left) - 5} more" if len(left) > 5 else "")
        why = "not mcpgen's, or changed since mcpgen wrote them" if changed else "not mcpgen's"
        note += f"; kept {shown} ({why})"
    return note


def _raise_after_removal(exc: BaseException, said: str) -> None:
    """The error to show once a failed or interrupted `new` removed what it made."""
    signum = _signal_of(exc)
    if signum is not None:
        by = "" if signum == signal.SIGINT else f" by {signal.Signals(signum).name}"
        raise McpgenError(f"interrupted{by}: {said}", exit_code=128 + signum) from None
    if isinstance(exc, OSError):  # a file system's refusal (a full disk): one line, not a trace
        where = f" {exc.filename}" if exc.filename else ""
        raise McpgenError(f"cannot write{where}: {exc.strerror or exc}; {said}") from None
    if isinstance(exc, McpgenError) and "\n" in exc.message:
        exc.message += f"\n{said}"
    elif isinstance(exc, McpgenError):  # one line: the failure, then what was removed
        for done_nothing in ("; nothing was changed", "; nothing was written"):
            exc.message = exc.message.removesuffix(done_nothing)
        exc.message += f"; {said}"


def _signal_of(exc: BaseException) -> int | None:
    """The signal that ended the run, if one did: Ctrl-C, or SIGTERM/SIGHUP, raised here or
    turned into an error by a commit that undid itself."""
    if isinstance(exc, KeyboardInterrupt):
        return signal.SIGINT
    if isinstance(exc, transaction.Signalled):
        return exc.signum
    if isinstance(exc, McpgenError) and exc.exit_code - 128 in {s.value for s in signal.Signals}:
        return exc.exit_code - 128
    return None


def _refuse_non_empty(target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise McpgenError(f"'{target}' exists and is not a directory")
    if target.is_dir() and any(target.iterdir()):
        raise McpgenError(f"'{target}' is not empty; choose a new directory (or --dir)")


def _first_commit(target: Path) -> tuple[bool, str | None]:
    """Make the project a git repository with a first commit, unless git is missing or the
    target already lives inside a repository. (committed, why a git step failed)."""
    from mcpgen.core.git import git, git_available

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
