"""All-or-nothing file writes that survive a crash: journal, stage, swap in, undo on failure.

1. Every temp, backup and new folder is named in the intent journal (`journal.py`), written
   and fsynced before anything else.
2. Every new content is staged in a temp file next to its target (same file system).
3. The targets change, one primitive each (see `journal.Op`); a user-owned file is created
   only if absent at that moment, and a generated file must still hold the bytes the plan
   read, so a file saved by the user while mcpgen runs is never replaced.
4. The journal is marked done, temps and backups are removed, the journal is deleted.

An exception, Ctrl-C, SIGTERM or SIGHUP rolls every step back from the same journal;
SIGKILL or a power loss leaves the journal for the next run (`journal.recover`).

`step_hook` (module level) or the `hook` argument runs before each step,
`MCPGEN_DEBUG_STEP_DELAY` (seconds) sleeps before each one and `MCPGEN_DEBUG_SWAP_DELAY`
between a replaced file's check and its swap: tests use them to inject a failure or to widen
the window in which a real signal or a racing save lands.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from mcpgen.errors import ExitCode, McpgenError, interrupted_after_writing
from mcpgen.write import atomic, journal
from mcpgen.write.atomic import fsync_directory
from mcpgen.write.journal import Journal, Op
from mcpgen.write.state import sha256_hex

# write: new bytes for a generated or local file; create: a user file, made only if absent.
StepKind = Literal["write", "create", "delete", "move"]

DELAY_ENV = "MCPGEN_DEBUG_STEP_DELAY"
# Seconds between checking a file that is about to be replaced and swapping the new one in.
SWAP_DELAY_ENV = "MCPGEN_DEBUG_SWAP_DELAY"


@dataclass(frozen=True)
class Step:
    """One change to one file; `content` for writes, `source` for moves (content untouched).

    `expect`: the sha256 the file had when the plan read it (writes, deletes); the step is
    refused if the file changed since. None: whatever the file holds when staging starts.
    """

    kind: StepKind
    path: str  # POSIX, relative to the root
    content: bytes | None = None
    source: str | None = None
    expect: str | None = None


@dataclass(frozen=True)
class CommitResult:
    """What a commit left differently from the plan, for the report."""

    kept: tuple[str, ...] = ()  # user files that appeared before mcpgen could create them
    backups: tuple[str, ...] = ()  # old bytes kept because the file changed meanwhile


StepHook = Callable[[int, Step], None]

# Tests set this (or pass `hook=`) to inject a failure before step N; None in normal runs.
step_hook: StepHook | None = None


class ChangedMeanwhile(McpgenError):
    """A file changed between the plan and its write: everything was undone."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(
            f"{path} {what} while mcpgen was writing; every change was undone, nothing was "
            "written. Run the command again once nothing else edits the project.",
            exit_code=ExitCode.CONFLICT,
        )


class Signalled(BaseException):
    """SIGTERM or SIGHUP arrived during a commit (raised like KeyboardInterrupt for SIGINT)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _sibling(path: str, tag: str) -> str:
    # Hidden, unique, next to the target: same directory means same file system for renames.
    pure = PurePosixPath(path)
    return str(pure.with_name(f".{pure.name}.{secrets.token_hex(4)}.mcpgen-{tag}"))


def _missing_dirs(root: Path, paths: Sequence[str]) -> list[str]:
    missing: list[str] = []
    for path in paths:
        folder = PurePosixPath(path).parent
        chain: list[str] = []
        while str(folder) not in (".", "") and not (root / folder).exists():
            chain.append(str(folder))
            folder = folder.parent
        missing.extend(d for d in reversed(chain) if d not in missing)
    return missing


def _current_sha(root: Path, path: str) -> str | None:
    return journal.sha_of(root / path) if os.path.lexists(root / path) else None


@dataclass(frozen=True)
class _Planned:
    """The journal of a commit, with each op's new bytes and the step it came from."""

    journal: Journal
    contents: dict[int, bytes]  # op index → bytes to stage
    origin: list[int]  # op index → step index


def _plan(root: Path, steps: Sequence[Step]) -> _Planned:
    ops: list[Op] = []
    contents: dict[int, bytes] = {}
    origin: list[int] = []
    for index, step in enumerate(steps):
        if step.kind == "move":
            assert step.source is not None
            # Through a hidden stash: a swap or a cycle of renames then never meets a target
            # that is still in use (every source leaves before any target is filled).
            stash = _sibling(step.source, "move")
            ops.append(Op("rename", stash, source=step.source))
            origin.append(index)
            continue
        if step.kind == "delete":
            old = step.expect or _current_sha(root, step.path)
            ops.append(Op("delete", step.path, backup=_sibling(step.path, "backup"), old=old))
            origin.append(index)
            continue
        assert step.content is not None
        new = sha256_hex(step.content)
        temp = _sibling(step.path, "tmp")
        contents[len(ops)] = step.content
        exists = os.path.lexists(root / step.path)
        if step.kind == "write" and exists:
            old = step.expect or _current_sha(root, step.path)
            backup = _sibling(step.path, "backup")
            ops.append(Op("replace", step.path, temp=temp, backup=backup, new=new, old=old))
        else:
            ops.append(
                Op("create", step.path, temp=temp, new=new, keep_existing=step.kind == "create")
            )
        origin.append(index)
    # Second half of every move, after every first half (see above).
    for index, step in enumerate(steps):
        if step.kind == "move":
            stash = next(op.path for op, i in zip(ops, origin, strict=True) if i == index)
            ops.append(Op("rename", step.path, source=stash))
            origin.append(index)
    targets = [op.path for op in ops]
    dirs = _missing_dirs(root, [journal.JOURNAL_PATH, *targets])
    return _Planned(Journal(tuple(ops), tuple(dirs)), contents, origin)


# Files staged at once: each waits in its own fsync, which releases the GIL, so the file
# system commits many of them together instead of one journal flush after another.
STAGING_THREADS = 8


def _stage_all(root: Path, planned: _Planned) -> None:
    """Every new file written and fsynced under its temp name, before the first link.

    On an error the pool still finishes what it started, so the rollback that follows finds
    every temp that exists (it removes each one the journal lists); signals wait (the caller
    blocks them) until every thread is done."""
    with ThreadPoolExecutor(STAGING_THREADS, thread_name_prefix="mcpgen-stage") as pool:
        staged = []
        for index, content in planned.contents.items():
            op = planned.journal.ops[index]
            assert op.temp is not None
            staged.append((op.path, pool.submit(_stage, root, op.temp, content, root / op.path)))
        for path, future in staged:
            try:
                future.result()
            except OSError as exc:
                raise McpgenError(
                    f"cannot write {path}: {_describe(exc)}; nothing was changed"
                ) from None


def _stage(root: Path, path: str, content: bytes, like: Path) -> None:
    temp = root / path
    # "xb" never clobbers; the file gets the usual umask-derived mode, or the target's.
    with temp.open("xb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())
    if like.is_file() and not like.is_symlink():
        _take_mode_and_owner(like, temp)


def _take_mode_and_owner(like: Path, temp: Path) -> None:
    """The replaced file's permission bits and, where allowed (root), its owner: a file
    edited by an administrator's run stays its owner's."""
    info = like.stat()
    if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
        with contextlib.suppress(OSError):  # not allowed unless root: the run's owner stays
            os.chown(temp, info.st_uid, info.st_gid)
    os.chmod(temp, info.st_mode & 0o7777)  # after chown, which clears set-id bits


def _do(root: Path, op: Op, kept: list[str]) -> None:
    """Run one op; ChangedMeanwhile when the disk no longer matches the plan."""
    target = root / op.path
    if op.kind == "rename":
        assert op.source is not None
        try:
            os.link(root / op.source, target, follow_symlinks=False)
        except FileExistsError:
            raise McpgenError(
                f"cannot move a file to {op.path}: the target exists; nothing was changed"
            ) from None
        (root / op.source).unlink()
        return
    if op.kind == "create":
        assert op.temp is not None
        try:
            os.link(root / op.temp, target)
        except FileExistsError:
            if not op.keep_existing:
                raise ChangedMeanwhile(op.path, "was created") from None
            kept.append(op.path)  # the user's file wins; the stub is dropped at cleanup
        return
    assert op.backup is not None
    backup = root / op.backup
    os.link(target, backup, follow_symlinks=False)
    if op.old is not None and journal.sha_of(backup) != op.old:
        raise ChangedMeanwhile(op.path, "was changed")
    if op.kind == "delete":
        target.unlink()
        # An in-place save between the check and the unlink lands in the backup's inode:
        # undo it all, so the backup goes back and those bytes are kept.
        if op.old is not None and journal.sha_of(backup) != op.old:
            raise ChangedMeanwhile(op.path, "was changed")
        return
    assert op.temp is not None
    _delay(SWAP_DELAY_ENV)
    _swap_in(root / op.temp, target, backup, op.path)
    # An in-place save between the check and the swap lands in the old inode: undo it all.
    if journal.sha_of(backup) != op.old:
        raise ChangedMeanwhile(op.path, "was changed")


def _swap_in(temp: Path, target: Path, backup: Path, path: str) -> None:
    """Put the staged file at `target`, which must still be the inode backed up.

    An editor that saves by renaming a new file over `target` may do so just after the
    check: an exchange (not a replace) then hands that file back instead of deleting it.
    Where the file system cannot exchange, a plain replace leaves that window open.
    """
    with signals_blocked():  # never stop between an exchange and the one that undoes it
        if not atomic.exchange(temp, target):
            os.replace(temp, target)
            return
        if _same_file(temp, backup):
            temp.unlink()  # the old inode, still linked as the backup
            return
        atomic.exchange(temp, target)  # the user's file goes back where they saved it
    raise ChangedMeanwhile(path, "was saved again")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _delay(variable: str = DELAY_ENV) -> None:
    try:
        seconds = float(os.environ.get(variable, "0"))
    except ValueError:
        return
    if seconds > 0:
        time.sleep(seconds)


@dataclass
class Written:
    """What the commits inside a `recording()` block made: each file with the sha256 of the
    bytes written, and the folders they created (parents first)."""

    root: Path  # resolved
    files: dict[str, str] = field(default_factory=dict)  # path relative to `root` → sha256
    dirs: list[str] = field(default_factory=list)


_recorders: list[Written] = []


@contextmanager
def recording(root: Path) -> Iterator[Written]:
    """Note every file and folder the commits under `root` make while the block runs, once
    each commit is done (a commit rolled back adds nothing): a command that must undo its
    work later (`mcpgen new`, interrupted) removes exactly these, and only with these bytes."""
    written = Written(root.resolve())
    _recorders.append(written)
    try:
        yield written
    finally:
        _recorders.remove(written)


def _record(root: Path, planned: Journal, kept: Sequence[str]) -> None:
    for written in _recorders:
        if root.resolve() != written.root:
            continue
        written.dirs.extend(d for d in planned.dirs if d not in written.dirs)
        for op in planned.ops:
            if op.kind in ("create", "replace") and op.new and op.path not in kept:
                written.files[op.path] = op.new
            elif op.kind == "delete":
                written.files.pop(op.path, None)
            elif op.kind == "rename" and op.source in written.files:
                written.files[op.path] = written.files.pop(op.source)


_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
_BLOCKED = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into an exception (like SIGINT) while the commit runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, _frame: object) -> None:
        raise Signalled(signum)

    previous = {number: signal.signal(number, interrupt) for number in _SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def signals_blocked() -> Iterator[None]:
    """Hold off Ctrl-C, SIGTERM and SIGHUP inside the block (main thread only)."""
    # Undoing or cleaning up must not itself be interrupted by a second Ctrl-C.
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _describe(error: OSError) -> str:
    return error.strerror or str(error)


def commit(root: Path, steps: Sequence[Step], *, hook: StepHook | None = None) -> CommitResult:
    """Apply every step or none of them.

    After a rollback, an OS error (permissions, a file where a folder is needed, a full disk)
    becomes a McpgenError naming the file; SIGTERM/SIGHUP become a McpgenError saying
    everything was undone; anything else (KeyboardInterrupt, a bug, a test's injected
    exception) is re-raised as it is.
    """
    if not steps:
        return CommitResult()
    hook = hook if hook is not None else step_hook
    if (root / journal.JOURNAL_PATH).exists():  # never overwrite the record of a killed run
        raise McpgenError(
            f"{journal.JOURNAL_PATH} records an interrupted write; run `mcpgen generate` "
            "to finish or undo it first"
        )
    planned = _plan(root, steps)
    kept: list[str] = []
    current = steps[0].path
    try:
        with signals_interrupt():
            (root / journal.JOURNAL_PATH).parent.mkdir(exist_ok=True)
            journal.save(root, planned.journal)
            for folder in planned.journal.dirs:
                (root / folder).mkdir(exist_ok=True)
            # A signal waits for the staging: one landing while the pool starts a thread would
            # leave that thread writing temps after the rollback has removed them.
            with signals_blocked():
                _stage_all(root, planned)
            hooked: set[int] = set()
            for index, op in enumerate(planned.journal.ops):
                step_index = planned.origin[index]
                current = steps[step_index].path
                if step_index not in hooked:
                    hooked.add(step_index)
                    if hook is not None:
                        hook(step_index, steps[step_index])
                _delay()
                _do(root, op, kept)
            with signals_blocked():
                for changed in {(root / op.path).parent for op in planned.journal.ops}:
                    fsync_directory(changed)
                journal.save(root, Journal(planned.journal.ops, planned.journal.dirs, True))
                _record(root, planned.journal, kept)
    except BaseException as exc:
        with signals_blocked():
            undone = journal.rollback(root, planned.journal)
            if not undone.problems:
                journal.remove(root)
                journal.remove_dirs(root, planned.journal)
        _raise_after_rollback(exc, undone, current)
        raise
    try:
        with signals_blocked():  # done: from here on a signal waits for the cleanup
            _delay()  # done but not cleaned up: the last window a crash test aims at
            backups = journal.finish(root, planned.journal)
            journal.remove(root)
    except KeyboardInterrupt:  # Ctrl-C that waited: report it, but nothing is undone
        raise interrupted_after_writing() from None
    return CommitResult(tuple(kept), tuple(backups))


def _raise_after_rollback(exc: BaseException, undone: journal.Rollback, current: str) -> None:
    if undone.problems:
        raise McpgenError(
            "writing failed and could not be fully undone: " + "; ".join(undone.problems)
        ) from None
    # Files the user saved while mcpgen was writing stay: each is named on its own line.
    kept = "".join(f"\n{journal.kept_line(path)}" for path in undone.kept)
    if isinstance(exc, Signalled):
        raise McpgenError(
            f"interrupted by {exc}; every change was undone, nothing was written{kept}",
            exit_code=128 + exc.signum,
        ) from None
    if isinstance(exc, McpgenError):
        exc.message += kept
        return
    if isinstance(exc, OSError):
        raise McpgenError(
            f"cannot write {current}: {_describe(exc)}; nothing was changed{kept}"
        ) from None
    if isinstance(exc, KeyboardInterrupt) and kept:
        raise McpgenError(
            f"Interrupted: every change was undone, nothing was written{kept}", exit_code=130
        ) from None
