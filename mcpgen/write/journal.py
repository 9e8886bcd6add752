"""The intent journal: `.mcpgen/journal.json` lists every step of a commit before the first one.

A commit is a list of primitive operations, each undoable by looking at the disk alone:

- `replace`: an existing file gets new bytes; its old inode is kept as `backup` (a hard link,
  so taking the backup is atomic and a half-copied backup cannot exist);
- `create`: a new file appears by hard-linking its staged `temp` to the target, which fails
  if anything is there (exclusive create: a file the user saved meanwhile is never replaced);
- `delete`: the file is hard-linked to `backup`, then unlinked;
- `rename`: a user file moves (hard link, then unlink: never onto an existing file).

The journal names every temp, backup and new folder before any of them exists, and is fsynced
before the first change. A run killed at any point (SIGKILL, power loss) leaves it behind; the
next mcpgen command in the project reads it and rolls the commit back (or, when the journal says
every step was done, only removes the leftovers), then says so in one line.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal, get_args

from mcpgen.errors import McpgenError
from mcpgen.write.atomic import fsync_directory
from mcpgen.write.paths import check_entry, outside_reason

JOURNAL_PATH = ".mcpgen/journal.json"
FORMAT = 1

OpKind = Literal["replace", "create", "delete", "rename"]


@dataclass(frozen=True)
class Op:
    """One primitive change; every path is POSIX, relative to the project root."""

    kind: OpKind
    path: str
    temp: str | None = None  # replace, create: the staged new bytes
    backup: str | None = None  # replace, delete: the old inode
    source: str | None = None  # rename
    new: str | None = None  # sha256 of the new bytes (replace, create)
    old: str | None = None  # sha256 the file had when planned (replace, delete)
    keep_existing: bool = False  # create of a user file: one already there wins


@dataclass(frozen=True)
class Journal:
    """A commit's plan as written to disk."""

    ops: tuple[Op, ...]
    dirs: tuple[str, ...]  # folders the commit creates, parents first
    committed: bool = False


def _render(journal: Journal) -> str:
    """The journal's JSON text; empty and false fields are left out."""
    data = {
        "format": FORMAT,
        "committed": journal.committed,
        "dirs": list(journal.dirs),
        "ops": [
            {k: v for k, v in asdict(op).items() if v not in (None, False)} for op in journal.ops
        ],
    }
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def save(root: Path, journal: Journal) -> None:
    """Write the journal durably (temp file, fsync, rename, fsync of the folder)."""
    path = root / JOURNAL_PATH
    temp = path.with_name(f".{path.name}.writing")
    temp.unlink(missing_ok=True)  # a leftover, or a planted symlink: never written through
    try:
        with os.fdopen(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644), "w") as handle:
            handle.write(_render(journal))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)


def remove(root: Path) -> None:
    """Delete the journal, durably: the folder is fsynced after the unlink."""
    (root / JOURNAL_PATH).unlink(missing_ok=True)
    fsync_directory((root / JOURNAL_PATH).parent)


def parse(root: Path, text: str) -> Journal:
    """A journal read back; every path in it is checked like any untrusted path."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("unknown journal format")
        ops = tuple(Op(**raw) for raw in data["ops"])
        unknown = [op.kind for op in ops if op.kind not in get_args(OpKind)]
        if unknown:
            raise ValueError(f"unknown step {unknown[0]!r}")
        dirs = tuple(str(d) for d in data["dirs"])
        journal = Journal(ops, dirs, bool(data.get("committed")))
    except (ValueError, KeyError, TypeError) as exc:
        raise McpgenError(
            f"{JOURNAL_PATH} is damaged ({exc}); an interrupted write cannot be undone "
            f"automatically: check `git status`, then delete {JOURNAL_PATH}"
        ) from None
    for path in _paths(journal):
        check_entry(path, where=JOURNAL_PATH, text=text)
        reason = outside_reason(root, path)
        if reason is not None:
            raise McpgenError(f"{JOURNAL_PATH}: refusing {path!r}: {reason}")
    return journal


def _paths(journal: Journal) -> Iterable[str]:
    yield from journal.dirs
    for op in journal.ops:
        yield from (p for p in (op.path, op.temp, op.backup, op.source) if p is not None)


def sha_of(path: Path) -> str | None:
    """sha256 of the file's bytes, or None when it cannot be read (missing, dangling link)."""
    from mcpgen.write.state import sha256_hex

    try:
        return sha256_hex(path.read_bytes())
    except OSError:
        return None


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b) if not a.is_symlink() else a.lstat() == b.lstat()
    except OSError:
        return False


def undo(root: Path, op: Op, kept: list[str]) -> str | None:
    """Put back what `op` changed, judging from the disk only; a problem left, or None.

    Safe whether `op` ran fully, partly or not at all: each branch checks which it was. A file
    mcpgen created that no longer holds exactly the bytes it wrote (the user saved into it in
    place meanwhile) is left where it is and its path added to `kept`.
    """
    if op.kind == "rename":
        _undo_rename(root / (op.source or ""), root / op.path)
        return None
    if op.kind == "create":
        _undo_create(root, op, kept)
        return None
    return _undo_backed_up(root, op, kept)


def _undo_create(root: Path, op: Op, kept: list[str]) -> None:
    temp, target = root / (op.temp or ""), root / op.path
    if not (os.path.lexists(target) and os.path.lexists(temp) and _same(temp, target)):
        return  # never linked, or a file that won the race: not ours to remove
    # Still the staged inode, but an in-place save (`echo >>`, an editor that rewrites the
    # file it opened) changes that inode's bytes too: only mcpgen's exact bytes may go.
    if sha_of(target) != op.new:
        kept.append(op.path)
        return
    target.unlink()


def _undo_rename(source: Path, target: Path) -> None:
    if not os.path.lexists(target):
        return  # never happened
    if os.path.lexists(source):
        if _same(source, target):
            target.unlink()  # linked, not yet unlinked from the source
        return
    os.link(target, source, follow_symlinks=False)
    target.unlink()


def _undo_backed_up(root: Path, op: Op, kept: list[str]) -> str | None:
    target, backup = root / op.path, root / (op.backup or "")
    if not os.path.lexists(backup):
        return None  # the old file was never touched
    if _caught_in_swap(root, op):
        os.replace(root / (op.temp or ""), target)  # the user's save goes back where it was
        return _saved_meanwhile(op, target, backup, kept)
    if os.path.lexists(target):
        if _same(backup, target):
            backup.unlink()  # backed up, not yet replaced or deleted
            return None
        if op.kind == "delete" or sha_of(target) != op.new:
            return _saved_meanwhile(op, target, backup, kept)
    os.replace(backup, target)
    return None


def _caught_in_swap(root: Path, op: Op) -> bool:
    """Whether a run was killed between the two exchanges of a swap that caught a user's save
    (`transaction._swap_in`): the save is in the temp, mcpgen's new bytes at the target.

    Only a replace whose backup exists has reached its swap, so its temp is complete then: one
    holding neither the new bytes nor the old inode can only be the user's file."""
    temp, target = root / (op.temp or ""), root / op.path
    if op.kind != "replace" or not os.path.lexists(temp) or sha_of(target) != op.new:
        return False
    return not _same(temp, root / (op.backup or "")) and sha_of(temp) not in (op.new, op.old)


def _saved_meanwhile(op: Op, target: Path, backup: Path, kept: list[str]) -> str | None:
    """`target` is neither the old file nor mcpgen's new one: the user saved it meanwhile
    (a new file renamed over it, or bytes written into mcpgen's). Their file stays; the
    backup goes if it holds exactly the bytes the plan read (the save superseded them), and
    is kept, named, when those bytes changed too."""
    if op.old is not None and sha_of(backup) == op.old:
        backup.unlink()
        kept.append(op.path)
        return None
    return f"{op.path} changed again while mcpgen was writing; its old bytes are in {op.backup}"


@dataclass(frozen=True)
class Rollback:
    """What undoing a commit left: `problems` block it (the journal stays), `kept` do not
    (files the user saved while mcpgen was writing, left as saved)."""

    problems: list[str]
    kept: list[str]


def kept_line(path: str) -> str:
    """The one line that says a file the user saved meanwhile was kept by an undo."""
    return (
        f"Kept {path}: it was saved while mcpgen was writing, so undoing the write left it as saved"
    )


def rollback(root: Path, journal: Journal) -> Rollback:
    """Undo every op (newest first), remove temps and new folders."""
    problems: list[str] = []
    kept: list[str] = []
    for op in reversed(journal.ops):
        try:
            problem = undo(root, op, kept)
        except OSError as exc:  # keep going: put back as much as possible
            problem = f"{op.path}: {exc.strerror or exc}"
        if problem:
            problems.append(problem)
    for op in journal.ops:
        if op.temp is not None:
            with contextlib.suppress(OSError):
                (root / op.temp).unlink()
    return Rollback(problems, kept)


def remove_dirs(root: Path, journal: Journal) -> None:
    """After a rollback and once the journal is gone: the folders the commit created."""
    for folder in reversed(journal.dirs):
        with contextlib.suppress(OSError):
            (root / folder).rmdir()  # only if empty: never removes what the user put there


def finish(root: Path, journal: Journal) -> list[str]:
    """After every op ran: remove temps and backups; a backup whose bytes are not the ones
    planned (the user wrote to the file meanwhile) is kept and named."""
    kept: list[str] = []
    for op in journal.ops:
        if op.temp is not None:
            with contextlib.suppress(OSError):
                (root / op.temp).unlink()
        if op.backup is not None and os.path.lexists(root / op.backup):
            if op.old is not None and sha_of(root / op.backup) not in (op.old, None):
                kept.append(op.backup)
                continue
            with contextlib.suppress(OSError):
                (root / op.backup).unlink()
    return kept


def recover(root: Path) -> str | None:
    """Finish or roll back a commit a killed run left; one line saying what was done, or None."""
    path = root / JOURNAL_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise McpgenError(f"cannot read {JOURNAL_PATH}: {exc}") from None
    journal = parse(root, text)
    if not os.access(path.parent, os.W_OK):  # a read-only checkout: any undo would fail halfway
        raise McpgenError(
            f"{JOURNAL_PATH} records an interrupted write, which cannot be finished or undone "
            "here: the project is read-only. Run `mcpgen generate` where it can be written"
        )
    if journal.committed:
        kept = finish(root, journal)
        remove(root)
        note = f" (changed files' old bytes kept in: {', '.join(kept)})" if kept else ""
        return (
            f"Completed an interrupted write: every change had been made; leftovers removed{note}."
        )
    undone = rollback(root, journal)
    if undone.problems:
        raise McpgenError(
            "an interrupted write could not be fully undone: "
            + "; ".join(undone.problems)
            + f". Compare those files, keep what you want, then delete {JOURNAL_PATH}"
        )
    remove(root)
    remove_dirs(root, journal)
    if undone.kept:
        return "\n".join(
            [
                f"Recovered from an interrupted write: undid its {len(journal.ops)} step(s), "
                "except for the file(s) below.",
                *(kept_line(path) for path in undone.kept),
            ]
        )
    return (
        f"Recovered from an interrupted write: undid its {len(journal.ops)} step(s); "
        "the project is as it was before it."
    )
