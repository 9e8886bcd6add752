"""One mcpgen at a time per project: `.mcpgen/lock`, naming its holder.

Two runs at once (two `generate`s, or `--watch` and a manual run) would each read the other's
half-written files as hand edits. The lock is an advisory `flock` on `.mcpgen/lock` (fcntl,
from the standard library: the kernel drops it when its process dies, so a lock left by a
killed run is taken over without guessing from pids). The file holds the holder's pid,
command and start time, for the message the second run prints; it is removed on release.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from mcpgen.core.relpath import outside_reason
from mcpgen.errors import McpgenError

LOCK_PATH = ".mcpgen/lock"

# Re-entrant within one process: `add tool` or `update` may run generate under their own lock.
_held: dict[Path, int] = {}


def _describe_holder(path: Path) -> str:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(data["since"])))
        return f"pid {int(data['pid'])} (`{data['command']}`, since {since})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another mcpgen process"


def _try_lock(path: Path) -> int | None:
    """An open, locked descriptor of the lock file at `path`, or None if someone holds it."""
    while True:
        # Never through a symlink: a cloned repository could point the lock at any file.
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        # The previous holder removes the file on release: if ours is no longer the file at
        # `path`, we locked a deleted inode and must try again on the new one.
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)


def _try_shared(path: Path) -> tuple[int | None, bool]:
    """For a run that writes nothing, where the lock file cannot be made or opened for writing
    (a read-only checkout, another user's `.mcpgen/`): a shared lock on the file if there is
    one. (the descriptor or None, whether a writer holds the lock)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None, False  # no lock file, and none can be made: nobody writes here
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        return None, isinstance(exc, BlockingIOError)
    return fd, False


def _name_the_holder(fd: int) -> None:
    holder = {
        "pid": os.getpid(),
        "command": " ".join(["mcpgen", *sys.argv[1:]]),
        "since": time.time(),
    }
    # Only a name tag for the message a second run prints: a full disk must not stop the run.
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps(holder).encode("utf-8"))


def _refuse_links(root: Path, path: Path) -> None:
    """`.mcpgen/` and its lock are mcpgen's own: a symlink there (a cloned repository's) would
    make the lock, the journal and the state land outside the project, or truncate a file."""
    reason = outside_reason(root, LOCK_PATH)
    if reason is None and path.is_symlink():
        reason = "it is a symlink"
    if reason is not None:
        raise McpgenError(
            f"refusing {LOCK_PATH}: {reason}; nothing was written (remove the link and run "
            "the command again)"
        )


# Why a lock file cannot be made or opened for writing, other than a real problem.
_CANNOT_WRITE = {errno.EROFS, errno.EACCES, errno.EPERM}


@contextlib.contextmanager
def project_lock(root: Path, *, wait: float = 0.0, reading: bool = False) -> Iterator[None]:
    """Hold the project's lock; McpgenError naming the holder if it is taken after `wait` s.

    `reading`: the run writes nothing (`generate --check`), so where the lock file cannot be
    written (a read-only checkout) it takes a shared lock on an existing one, or none.
    """
    root = root.resolve()
    if root in _held:
        _held[root] += 1
        try:
            yield
        finally:
            _held[root] -= 1
        return
    path = root / LOCK_PATH
    made_folder = not path.parent.exists()
    shared = held_by_writer = False
    _refuse_links(root, path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + wait
        fd = _try_lock(path)
        while fd is None and time.monotonic() < deadline:
            time.sleep(0.05)
            fd = _try_lock(path)
    except OSError as exc:
        if not (reading and exc.errno in _CANNOT_WRITE):
            raise McpgenError(
                f"cannot lock {LOCK_PATH}: {exc.strerror or exc}; nothing was written"
            ) from None
        shared = True
        fd, held_by_writer = _try_shared(path)
    if fd is None and (held_by_writer or not shared):
        raise McpgenError(
            f"another mcpgen is working on this project: {_describe_holder(path)} holds "
            f"{LOCK_PATH}; wait for it to finish (nothing was written)"
        )
    _held[root] = 1
    try:
        if not shared:
            assert fd is not None
            _name_the_holder(fd)
        yield
    finally:
        del _held[root]
        if not shared:
            with contextlib.suppress(OSError):
                path.unlink()  # before unlocking: a waiter then re-checks the inode and retries
        if fd is not None:
            os.close(fd)
        if made_folder:  # a run that wrote nothing leaves the project as it found it
            with contextlib.suppress(OSError):
                path.parent.rmdir()  # only if still empty
