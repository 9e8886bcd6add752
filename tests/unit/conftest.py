"""The unit tier's promise, kept by the tier itself: a test here starts no process, opens no
socket and does not sleep on the clock.

Two processes are the code's own and allowed: the pinned ruff that lays out every render
(`render/layout.py`), since a plan cannot be rendered without it, and the runtime's regex
worker, which evaluates a pattern RE2 cannot take under a deadline (`regex_process.py`).
A test that needs anything else belongs in `tests/e2e/`; this folder's guard fails it with
that advice instead of letting it slow or flake the fast tier.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


class TierViolation(AssertionError):
    """A unit test reached for a process, a socket or the clock."""


def _refuse(what: str) -> TierViolation:
    return TierViolation(f"a unit test {what}: move it to tests/e2e/ (see tests/unit/conftest.py)")


def _is_the_codes_own(args: Any) -> bool:
    from ruff.__main__ import find_ruff_bin

    from mcpgen.runtime.validation import regex_worker

    argv = [str(a) for a in args] if isinstance(args, (list, tuple)) else [str(args)]
    pinned_ruff = Path(argv[0]) == Path(find_ruff_bin())
    return pinned_ruff or str(Path(regex_worker.__file__)) in argv


@pytest.fixture(autouse=True)
def _in_process_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    original_init = subprocess.Popen.__init__

    def popen(self: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
        if not _is_the_codes_own(args):
            raise _refuse(f"started a process ({args!r:.80})")
        original_init(self, args, *rest, **options)

    def no_socket(*args: Any, **kwargs: Any) -> None:
        raise _refuse("opened a network connection")

    def no_sleep(seconds: float) -> None:
        raise _refuse(f"slept {seconds} s")

    monkeypatch.setattr(subprocess.Popen, "__init__", popen)
    monkeypatch.setattr(socket.socket, "connect", no_socket)
    monkeypatch.setattr(socket.socket, "bind", no_socket)
    monkeypatch.setattr(time, "sleep", no_sleep)
    yield
