"""`mcpgen update`: bring scaffold improvements of a newer mcpgen into a project via copier.

Copier's three-way update needs the template as a git repository holding both the version
the project was made from and the new one. mcpgen ships its template as a plain folder, so:

1. `mcpgen new` (and every update) records the template source it used in
   `.mcpgen/scaffold.json` (`record_template`): the *old* version then always travels with
   the project, on any machine, whatever mcpgen is installed later.
2. `update` builds a throw-away git repository: commit tagged `1` = the recorded template,
   commit tagged `2` = the template of the installed mcpgen.
3. Copier's public `run_update` merges `1` → `2` into a throw-away *copy* of the project's
   tracked files, whose answers file points at that repository; the project itself is never
   handed to copier. The answers and the recorded template are checked first
   (`scaffold_guard`): copier would write wherever a file name renders to.
4. From the copy, only scaffold files come back (all or nothing, through the same journaled
   transaction as `generate`): handlers, user tests, generated files and `.mcpgen/` are
   mcpgen's or the user's, so a file copier re-creates there (an example handler a rename
   moved away) is left out, and a file the new template no longer has is reported, never
   deleted. A file the old template did not make but the project has (the user's own, or
   one `mcpgen generate` created) is kept byte for byte when the new template adds one of the
   same name: copier would merge the two as edits of one file and fill it with markers.
   Conflicts in the scaffold's own files stay as copier's markers and are listed.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from mcpgen import __version__
from mcpgen.core.git import git
from mcpgen.errors import McpgenError
from mcpgen.scaffold.guard import (
    check_template_paths,
    load_answers,
    refuse_downgrade,
    rendered_paths,
)
from mcpgen.scaffold.template import ANSWERS_FILE, SOURCE_MARKER
from mcpgen.write.atomic import write_atomic
from mcpgen.write.paths import check_entry, check_inside
from mcpgen.write.transaction import Step, commit

RECORD_PATH = ".mcpgen/scaffold.json"
_CONFLICT_MARKER = re.compile(rb"^<<<<<<< ", re.MULTILINE)


@dataclass(frozen=True)
class TemplateRecord:
    """A template's source files (POSIX path → text) and the mcpgen version that shipped it."""

    mcpgen_version: str
    files: Mapping[str, str]


@dataclass(frozen=True)
class UpdateResult:
    """What `mcpgen update` changed."""

    changed: tuple[str, ...]
    conflicts: tuple[str, ...]
    up_to_date: bool = False
    dropped: tuple[str, ...] = ()  # the new template no longer has them: kept, not deleted
    left_out: tuple[str, ...] = ()  # copier's changes to files the scaffold does not own
    kept_own: tuple[str, ...] = ()  # the new template adds them, the project has its own
    recovered: str | None = None  # an interrupted write finished or undone first


def _template_dir() -> Path:
    from mcpgen.scaffold.template import template_dir

    return template_dir()


def current_template() -> TemplateRecord:
    """The template of the installed mcpgen."""
    root = _template_dir()
    files = {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }
    return TemplateRecord(__version__, files)


def render_record(record: TemplateRecord) -> str:
    """The text of `.mcpgen/scaffold.json`: stable JSON, so the record diffs well in git."""
    data = {"mcpgen_version": record.mcpgen_version, "template": dict(record.files)}
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def record_template(root: Path) -> None:
    """Remember the installed template as the base of the next update (`mcpgen new` calls it)."""
    write_atomic(root / RECORD_PATH, render_record(current_template()))


def _load_record(root: Path) -> TemplateRecord | None:
    """The recorded template; None if there is none, an error if it is damaged or unsafe."""
    try:
        data = json.loads((root / RECORD_PATH).read_text(encoding="utf-8"))
        record = TemplateRecord(str(data["mcpgen_version"]), dict(data["template"]))
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        raise McpgenError(f"{RECORD_PATH} is damaged ({exc}); restore it from git") from None
    text = (root / RECORD_PATH).read_text(encoding="utf-8")
    for path in record.files:  # written into a temporary repository: must stay inside it
        check_entry(path, where=RECORD_PATH, text=text)
    return record


def _git(cwd: Path, *args: str) -> str:
    return git(cwd, *args, needed_by="`mcpgen update`")


def require_clean_git(root: Path) -> None:
    """Refuse unless `root` is in a git work tree with nothing uncommitted (as copier does)."""
    try:
        _git(root, "rev-parse", "--is-inside-work-tree")
    except McpgenError:
        raise McpgenError(
            f"'{root}' is not in a git repository; `mcpgen update` merges template changes into "
            "your files and needs git so you can review and undo them (`git init`, commit, retry)"
        ) from None
    dirty = [
        line
        for line in _git(root, "status", "--porcelain", "--", ".").splitlines()
        if line[3:] not in _OWN_RUNTIME_FILES
    ]
    if dirty:
        listed = ", ".join(line[3:] for line in dirty[:5]) + (" ..." if len(dirty) > 5 else "")
        raise McpgenError(
            f"the project has uncommitted changes ({listed}); commit or stash them first, "
            "so the update can be reviewed and undone"
        )


def _write_template(repo: Path, record: TemplateRecord) -> None:
    for child in repo.iterdir():
        if child.name != ".git":
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    for path, text in record.files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def build_template_repo(repo: Path, old: TemplateRecord, new: TemplateRecord) -> None:
    """A git repository with the old template tagged `1` and the new one tagged `2`."""
    _git(repo, "init", "--quiet")
    for tag, record in (("1", old), ("2", new)):
        _write_template(repo, record)
        _git(repo, "add", "--all")
        _git(repo, "commit", "--quiet", "--allow-empty", "-m", f"mcpgen {record.mcpgen_version}")
        _git(repo, "tag", tag)


# Present only while an mcpgen runs (this one): never "uncommitted changes".
_OWN_RUNTIME_FILES = (".mcpgen/lock",)
_NEVER_MERGED = ("src/*/handlers/*.py", "tests/test_*.py", ".mcpgen/*", ".mcpgen/**/*")


def _owned_elsewhere(path: str, protected: frozenset[str]) -> bool:
    """Files `update` never writes: the user's, `generate`'s, and mcpgen's records."""
    pure = PurePosixPath(path)
    return path in protected or any(pure.match(pattern) for pattern in _NEVER_MERGED)


def _protected(root: Path) -> frozenset[str]:
    """Every file the state file says is generated or user-owned (moved handlers included)."""
    from mcpgen.write.state import load_state

    state = load_state(root)
    if state is None:
        return frozenset()
    owned = set(state.files)
    for record in state.tools.values():
        owned.update(record.user_files)
    return frozenset(owned)


def _tracked(root: Path) -> list[str]:
    listed = _git(root, "ls-files", "-z", "--", ".").split("\0")
    return [path for path in listed if path]


def _copy_tracked(root: Path, copy: Path, tracked: list[str]) -> None:
    # Symlinks stay behind: copier writes through a link it finds, and a link (absolute, or
    # up and out) would lead it out of the copy, into the project or anywhere else.
    for path in tracked:
        source, target = root / path, copy / path
        if source.is_file() and not source.is_symlink():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _point_answers_at(copy: Path, repo: Path, answers: Mapping[str, object]) -> None:
    # The copy's answers name the throw-away repository and its old version, whatever the
    # project's file says; the project's own answers file keeps its machine-independent
    # marker. JSON is YAML: the checked answers, written without a YAML writer.
    pinned = {"_commit": "1", "_src_path": str(repo), **answers}
    (copy / ANSWERS_FILE).write_text(json.dumps(pinned, indent=1) + "\n", "utf-8")


def _run_copier(copy: Path, repo: Path) -> None:
    from copier import run_update

    _git(copy, "init", "--quiet")
    _git(copy, "add", "--all")
    _git(copy, "commit", "--quiet", "--allow-empty", "-m", "before update")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            run_update(
                copy,
                vcs_ref="2",
                defaults=True,
                overwrite=True,
                quiet=True,
                unsafe=False,
                conflict="inline",
                skip_answered=True,
            )
        except Exception as exc:  # copier's own errors: a message, never a traceback
            raise McpgenError(
                f"copier could not merge the template recorded in {RECORD_PATH} into this "
                f"mcpgen's: {_first_line(exc)}"
            ) from None


def _first_line(exc: Exception) -> str:
    """Copier's message without its advice (`--trust`, which mcpgen never passes)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _merged_answers(copy: Path) -> bytes:
    # Copier rewrote the answers with the throw-away repository: the project's file names
    # mcpgen's template by its machine-independent marker (which `load_answers` requires).
    text = (copy / ANSWERS_FILE).read_text(encoding="utf-8")
    text = re.sub(r"(?m)^_commit: .*\n", "", text)
    text = re.sub(r"(?m)^_src_path: .*$", f"_src_path: {SOURCE_MARKER}", text)
    return text.encode("utf-8")


@dataclass(frozen=True)
class _Merge:
    steps: tuple[Step, ...]
    dropped: tuple[str, ...]  # in the project, no longer in the template: kept
    left_out: tuple[str, ...]  # copier re-created or changed a file that is not the scaffold's
    kept_own: tuple[str, ...]  # the project's own file, which the new template also adds


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if path.is_file() else None
    except OSError:
        return None


def _collect(
    root: Path, copy: Path, tracked: list[str], protected: frozenset[str], old: frozenset[str]
) -> _Merge:
    """The writes that bring copier's merge back; `old` holds the old template's files."""
    from mcpgen.write.state import sha256_hex

    in_copy = {
        p.relative_to(copy).as_posix()
        for p in copy.rglob("*")
        if ".git" not in p.relative_to(copy).parts and (p.is_file() or p.is_symlink())
    }
    steps: list[Step] = []
    dropped: list[str] = []
    left_out: list[str] = []
    kept_own: list[str] = []
    for path in sorted(set(tracked) | in_copy):
        if (root / path).is_symlink():  # never merged, nor written through (see _copy_tracked)
            if path in old or (copy / path).exists():  # the template's: say it was left
                left_out.append(path)
            continue
        check_inside(root, path, where="the merged scaffold")
        before, after = _read(root / path), _read(copy / path)
        if path == ANSWERS_FILE:
            after = _merged_answers(copy)
        if before == after:
            continue
        if _owned_elsewhere(path, protected):
            left_out.append(path)
        elif before is not None and after is not None and path not in old:
            kept_own.append(path)
        elif after is None:
            if before is not None:
                dropped.append(path)
        else:
            expect = sha256_hex(before) if before is not None else None
            steps.append(Step("write", path, content=after, expect=expect))
    return _Merge(tuple(steps), tuple(dropped), tuple(left_out), tuple(kept_own))


def update_scaffold(root: Path, *, allow_downgrade: bool = False) -> UpdateResult:
    """Three-way merge the new scaffold into `root`; raises McpgenError for a refusal."""
    from mcpgen.write import journal
    from mcpgen.write.lock import project_lock

    root = root.resolve()
    if not (root / ANSWERS_FILE).is_file():
        raise McpgenError(f"no {ANSWERS_FILE} in '{root}': is it a project made by `mcpgen new`?")
    with project_lock(root):
        recovered = journal.recover(root)
        require_clean_git(root)
        result = _update(root, allow_downgrade=allow_downgrade)
    return replace(result, recovered=recovered)


def _recorded_versions(root: Path, old: TemplateRecord | None) -> dict[str, str]:
    """The mcpgen versions that last wrote the project: its template record and its state."""
    from mcpgen.write.state import STATE_PATH, load_state

    versions = {RECORD_PATH: old.mcpgen_version} if old is not None else {}
    state = load_state(root)
    if state is not None:
        versions[STATE_PATH] = state.mcpgen_version
    return versions


def _update(root: Path, *, allow_downgrade: bool) -> UpdateResult:
    new = current_template()
    old = _load_record(root)
    if not allow_downgrade:
        refuse_downgrade(_recorded_versions(root, old))
    answers = load_answers(root)
    if old is None:
        record_template(root)
        raise McpgenError(
            f"this project has no record of the template it was made with ({RECORD_PATH}); "
            "recorded the current one as the base: commit it, and future updates merge from it"
        )
    if dict(old.files) == dict(new.files):
        return UpdateResult((), (), up_to_date=True)
    check_template_paths(old.files, answers, RECORD_PATH)
    check_template_paths(new.files, answers, "mcpgen's template")
    protected = _protected(root)
    tracked = _tracked(root)
    with tempfile.TemporaryDirectory(prefix="mcpgen-update-") as temp:
        repo, copy = Path(temp) / "template", Path(temp) / "project"
        repo.mkdir()
        try:
            build_template_repo(repo, old, new)
            _copy_tracked(root, copy, tracked)
            _point_answers_at(copy, repo, answers)
        except OSError as exc:
            raise McpgenError(f"cannot prepare the merge: {exc.strerror or exc}") from None
        _run_copier(copy, repo)
        merge = _collect(root, copy, tracked, protected, rendered_paths(old.files, answers))
    record = Step("write", RECORD_PATH, content=render_record(new).encode("utf-8"))
    commit(root, [*merge.steps, record])
    result = _result(root)
    return replace(result, dropped=merge.dropped, left_out=merge.left_out, kept_own=merge.kept_own)


def _result(root: Path) -> UpdateResult:
    status = _git(root, "status", "--porcelain", "--untracked-files=all", "--", ".").splitlines()
    changed = sorted(line[3:] for line in status if line[3:] not in _OWN_RUNTIME_FILES)
    conflicts = [
        path
        for path in changed
        if path.endswith(".rej")
        or ((root / path).is_file() and _CONFLICT_MARKER.search((root / path).read_bytes()))
    ]
    return UpdateResult(tuple(changed), tuple(conflicts))
