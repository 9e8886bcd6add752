"""All-or-nothing file writes: stage every new content first, then swap files in, undo on failure.

Every new content is first written to a temp file in its target's directory (same file system,
so `os.replace` is atomic). Only when all are staged do the targets change, one `os.replace`
each, with an undo record kept for every step. Any exception, including KeyboardInterrupt,
rolls every step back in reverse order, so the tree is exactly as it was.

`step_hook` (module level) or the `hook` argument runs before each step: tests use it to
inject a crash between two writes and check that nothing changed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mcpgen.errors import McpgenError

StepKind = Literal["write", "delete", "move"]


@dataclass(frozen=True)
class Step:
    """One change to one file; `content` for writes, `source` for moves (content untouched)."""

    kind: StepKind
    path: str  # POSIX, relative to the root
    content: bytes | None = None
    source: str | None = None


StepHook = Callable[[int, Step], None]

# Tests set this (or pass `hook=`) to inject a failure before step N; None in normal runs.
step_hook: StepHook | None = None


def _sibling(target: Path, tag: str) -> Path:
    # Hidden, unique, next to the target: same directory means same file system for os.replace.
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}.mcpgen-{tag}")


def _write_new(path: Path, content: bytes) -> None:
    # "xb" never clobbers, and the file gets the usual umask-derived mode.
    with path.open("xb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())


def _move_back(moved: Path, original: Path) -> None:
    """Undo a rename, if it happened."""
    if moved.exists() and not original.exists():
        os.replace(moved, original)


class _Transaction:
    """The undo journal of one commit."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.created_dirs: list[Path] = []
        self.temps: list[Path] = []
        self.backups: list[Path] = []
        self.undo: list[Callable[[], None]] = []
        self.current = ""  # the path being staged or changed, for the error message

    def _mkdirs(self, directory: Path) -> None:
        missing: list[Path] = []
        while not directory.exists():
            missing.append(directory)
            directory = directory.parent
        for folder in reversed(missing):
            self.created_dirs.append(folder)  # first: an interrupted mkdir is still undone
            folder.mkdir()

    def stage(self, steps: Sequence[Step]) -> dict[int, Path]:
        staged: dict[int, Path] = {}
        for index, step in enumerate(steps):
            if step.kind != "write":
                continue
            assert step.content is not None
            self.current = step.path
            target = self.root / step.path
            self._mkdirs(target.parent)
            temp = _sibling(target, "tmp")
            self.temps.append(temp)
            _write_new(temp, step.content)
            if target.exists():
                shutil.copymode(target, temp)
            staged[index] = temp
        return staged

    def _backup(self, target: Path) -> Path:
        backup = _sibling(target, "backup")
        self.backups.append(backup)  # first: a half-written copy is still cleaned up
        shutil.copy2(target, backup)
        return backup

    # Each change registers its undo *before* acting, and every undo also works when the change
    # never happened: a KeyboardInterrupt can land between any two bytecodes.

    def write(self, step: Step, temp: Path) -> None:
        target = self.root / step.path
        if target.exists():
            backup = self._backup(target)
            self.undo.append(lambda: os.replace(backup, target))
        else:
            self.undo.append(lambda: target.unlink(missing_ok=True))
        os.replace(temp, target)

    def delete(self, step: Step) -> None:
        target = self.root / step.path
        backup = _sibling(target, "backup")
        self.backups.append(backup)
        self.undo.append(lambda: _move_back(backup, target))
        os.replace(target, backup)

    def move(self, step: Step) -> None:
        assert step.source is not None
        source, target = self.root / step.source, self.root / step.path
        if target.exists():
            raise McpgenError(f"cannot move {step.source} to {step.path}: the target exists")
        self._mkdirs(target.parent)
        self.undo.append(lambda: _move_back(target, source))
        os.rename(source, target)

    def rollback(self) -> list[str]:
        problems: list[str] = []
        for undo in reversed(self.undo):
            try:
                undo()
            except OSError as exc:  # keep going: restore as much as possible
                problems.append(str(exc))
        # A backup is the only copy of an original that could not be put back: keep those.
        self.cleanup(keep_backups=bool(problems))
        for folder in reversed(self.created_dirs):
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if empty: never removes anything the user put there
        return problems

    def cleanup(self, *, keep_backups: bool = False) -> None:
        for leftover in self.temps if keep_backups else (*self.temps, *self.backups):
            with contextlib.suppress(OSError):  # a hidden leftover must not fail a done commit
                leftover.unlink()


def _apply(txn: _Transaction, steps: Sequence[Step], hook: StepHook | None) -> None:
    staged = txn.stage(steps)
    for index, step in enumerate(steps):
        if hook is not None:
            hook(index, step)
        txn.current = step.path
        if step.kind == "write":
            txn.write(step, staged[index])
        elif step.kind == "delete":
            txn.delete(step)
        else:
            txn.move(step)


def _describe(error: OSError) -> str:
    return error.strerror or str(error)


def commit(root: Path, steps: Sequence[Step], *, hook: StepHook | None = None) -> None:
    """Apply every step or none of them.

    After a rollback, an OS error (permissions, a file where a folder is needed, a full disk)
    becomes a McpgenError naming the file; anything else (KeyboardInterrupt, a bug, a test's
    injected exception) is re-raised as it is.
    """
    hook = hook if hook is not None else step_hook
    txn = _Transaction(root)
    try:
        _apply(txn, steps, hook)
    except BaseException as exc:
        problems = txn.rollback()
        if problems:
            kept = ", ".join(str(b) for b in txn.backups)
            raise McpgenError(
                "writing failed and could not be fully undone: "
                + "; ".join(problems)
                + (f". Original contents are kept in: {kept}" if kept else "")
            ) from None
        if isinstance(exc, OSError):
            raise McpgenError(
                f"cannot write {txn.current}: {_describe(exc)}; nothing was changed"
            ) from None
        raise
    txn.cleanup()
