# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The protocol's descriptors, claimed from fd 0 and fd 1 before anything else can write to them.

The SDK's own `stdio_server` claims fd 0 and fd 1 the same way (since 2.3), but only for the
streams it serves itself, and only once it is imported. This transport reads the descriptors
directly, and claims them before the SDK (and the project's modules, which may print) load.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def claimed_stdio() -> Iterator[tuple[int, int]]:
    """Private copies of fd 0 and fd 1 for the protocol, for the duration.

    Meanwhile fd 0 reads the null device and fd 1 (and `sys.stdout`) writes to stderr, so a
    handler's `print`, a C library or a child process cannot corrupt the protocol stream.
    """
    sys.stdout.flush()
    read_fd, write_fd = os.dup(0), os.dup(1)  # not inherited by children (PEP 446)
    saved_stdout = sys.stdout
    try:
        _point(0, os.open(os.devnull, os.O_RDONLY))
        try:
            os.dup2(2, 1)
        except OSError:  # no stderr: stray output is dropped instead
            _point(1, os.open(os.devnull, os.O_WRONLY))
        sys.stdout = sys.stderr
        yield read_fd, write_fd
    finally:
        sys.stdout = saved_stdout
        for fd, private in ((0, read_fd), (1, write_fd)):
            with contextlib.suppress(OSError):
                os.dup2(private, fd)
            os.close(private)


def _point(fd: int, target: int) -> None:
    os.dup2(target, fd)
    os.close(target)
