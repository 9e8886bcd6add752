"""One mcpgen at a time per project: `.mcpgen/lock`, naming its holder.

Two runs at once (two `generate`s, or `--watch` and a manual run) would each read the other's
half-written files as hand edits. The lock is an advisory `flock` on `.mcpgen/lock` (fcntl,
from the standard library: the kernel drops it when its process dies, so a lock left by a
killed run is taken over without guessing from pids). The file holds the holder's pid,
command and start time, for the message the second run prints; it is removed on release.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

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
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
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


@contextlib.contextmanager
def project_lock(root: Path, *, wait: float = 0.0) -> Iterator[None]:
    """Hold the project's lock; McpgenError naming the holder if it is taken after `wait` s."""
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
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + wait
        fd = _try_lock(path)
        while fd is None and time.monotonic() < deadline:
            time.sleep(0.05)
            fd = _try_lock(path)
    except OSError as exc:
        raise McpgenError(f"cannot lock {LOCK_PATH}: {exc.strerror or exc}") from None
    if fd is None:
        raise McpgenError(
            f"another mcpgen is working on this project: {_describe_holder(path)} holds "
            f"{LOCK_PATH}; wait for it to finish (nothing was written)"
        )
    holder = {
        "pid": os.getpid(),
        "command": " ".join(["mcpgen", *sys.argv[1:]]),
        "since": time.time(),
    }
    os.ftruncate(fd, 0)
    os.write(fd, json.dumps(holder).encode("utf-8"))
    _held[root] = 1
    try:
        yield
    finally:
        del _held[root]
        with contextlib.suppress(OSError):
            path.unlink()  # before unlocking: a waiter then re-checks the inode and retries
        os.close(fd)
        if made_folder:  # a run that wrote nothing leaves the project as it found it
            with contextlib.suppress(OSError):
                path.parent.rmdir()  # only if still empty
