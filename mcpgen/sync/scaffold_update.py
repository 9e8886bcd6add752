"""`mcpgen update`: bring scaffold improvements of a newer mcpgen into a project via copier.

Copier's three-way update needs the template as a git repository holding both the version
the project was made from and the new one. mcpgen ships its template as a plain folder, so:

1. `mcpgen new` (and every update) records the template source it used in
   `.mcpgen/scaffold.json` (`record_template`): the *old* version then always travels with
   the project, on any machine, whatever mcpgen is installed later.
2. `update` builds a throw-away git repository: commit tagged `1` = the recorded template,
   commit tagged `2` = the template of the installed mcpgen; and runs copier's update from
   `1` to `2`. The project's answers file keeps its machine-independent `_src_path` marker:
   copier is told where the old template is through the subproject it reads answers from.
3. Conflicts stay in the files as copier's markers (never resolved silently) and are listed.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpgen import __version__
from mcpgen.errors import McpgenError
from mcpgen.git import git
from mcpgen.scaffold import ANSWERS_FILE
from mcpgen.write.atomic import write_atomic

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


def _template_dir() -> Path:
    from mcpgen.scaffold import template_dir

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
    data = {"mcpgen_version": record.mcpgen_version, "template": dict(record.files)}
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def record_template(root: Path) -> None:
    """Remember the installed template as the base of the next update (`mcpgen new` calls it)."""
    write_atomic(root / RECORD_PATH, render_record(current_template()))


def load_record(root: Path) -> TemplateRecord | None:
    try:
        data = json.loads((root / RECORD_PATH).read_text(encoding="utf-8"))
        return TemplateRecord(str(data["mcpgen_version"]), dict(data["template"]))
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        raise McpgenError(f"{RECORD_PATH} is damaged ({exc}); restore it from git") from None


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
    dirty = _git(root, "status", "--porcelain", "--", ".").splitlines()
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


def _user_files(root: Path) -> dict[Path, bytes]:
    """Handlers and user tests: an update must never change them (copier skips them too)."""
    found = [*root.glob("src/*/handlers/*.py"), *root.glob("tests/test_*.py")]
    return {p: p.read_bytes() for p in found if p.is_file()}


def _run_copier(root: Path, repo: Path) -> None:
    from copier import Worker
    from copier._subproject import Subproject

    answers = Subproject(local_abspath=root.absolute(), answers_relpath=Path(ANSWERS_FILE))
    # Point copier at the throw-away repository without touching the committed answers file
    # (which would make the tree dirty and is machine-independent on purpose).
    last: dict[str, Any] = {**answers.last_answers, "_src_path": str(repo), "_commit": "1"}
    answers.__dict__["last_answers"] = last
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        worker = Worker(
            src_path=str(repo),  # copier copies workers internally; they keep this one
            dst_path=root,
            vcs_ref="2",
            defaults=True,
            overwrite=True,
            quiet=True,
            unsafe=False,
            conflict="inline",
            skip_answered=True,
        )
        worker.__dict__["subproject"] = answers
        with worker:
            worker.run_update()


def _repin_answers(root: Path, original: str) -> None:
    # Copier rewrote the answers with the throw-away repository's path; keep the marker.
    path = root / ANSWERS_FILE
    text = path.read_text(encoding="utf-8")
    marker = re.search(r"(?m)^_src_path: .*$", original)
    text = re.sub(r"(?m)^_commit: .*\n", "", text)
    if marker:
        text = re.sub(r"(?m)^_src_path: .*$", marker.group(0), text)
    write_atomic(path, text)


def update_scaffold(root: Path) -> UpdateResult:
    """Three-way merge the new scaffold into `root`; raises McpgenError for a refusal."""
    root = root.resolve()
    if not (root / ANSWERS_FILE).is_file():
        raise McpgenError(f"no {ANSWERS_FILE} in '{root}': is it a project made by `mcpgen new`?")
    require_clean_git(root)
    new = current_template()
    old = load_record(root)
    if old is None:
        record_template(root)
        raise McpgenError(
            f"this project has no record of the template it was made with ({RECORD_PATH}); "
            "recorded the current one as the base: commit it, and future updates merge from it"
        )
    if dict(old.files) == dict(new.files):
        return UpdateResult((), (), up_to_date=True)
    original_answers = (root / ANSWERS_FILE).read_text(encoding="utf-8")
    user_before = _user_files(root)
    with tempfile.TemporaryDirectory(prefix="mcpgen-template-") as temp:
        repo = Path(temp)
        build_template_repo(repo, old, new)
        _run_copier(root, repo)
    _repin_answers(root, original_answers)
    for path, content in user_before.items():
        if path.read_bytes() != content:  # belt and braces: user code is never merged into
            write_atomic(path, content)
    record_template(root)
    return _result(root)


def _result(root: Path) -> UpdateResult:
    status = _git(root, "status", "--porcelain", "--untracked-files=all", "--", ".").splitlines()
    changed = sorted(line[3:] for line in status)
    conflicts = [
        path
        for path in changed
        if path.endswith(".rej")
        or ((root / path).is_file() and _CONFLICT_MARKER.search((root / path).read_bytes()))
    ]
    return UpdateResult(tuple(changed), tuple(conflicts))
