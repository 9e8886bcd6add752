"""Work that parallel test workers (pytest-xdist) share: done by the first, under a file lock,
and found done by the others."""

from __future__ import annotations

import fcntl
from collections.abc import Callable
from pathlib import Path


def once(ready: Path, make: Callable[[], None], lock: Path | None = None) -> None:
    """Run `make` unless `ready` exists, then create `ready`; one worker at a time, the lock
    file (`lock`, or `.NAME.lock` beside `ready`) held meanwhile.

    `ready` is written only after `make` returned, so an interrupted run is done again."""
    lock = lock or ready.parent / f".{ready.name}.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # let go when the file closes
        if not ready.exists():
            make()
            ready.write_text("ok\n")
