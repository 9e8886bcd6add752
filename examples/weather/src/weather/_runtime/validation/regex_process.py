# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Backtracking matches run in child processes, given up on at a deadline.

regress holds the GIL while it matches, so in-process a runaway match (`(a+)+\\1` against
thirty `a`s) freezes every thread of the server and no timeout can fire. In a child
process it blocks nothing but that process: the caller waits on a pipe (the GIL free), and at
its deadline kills the child, which is started again for the next match. A few children
(`RegexPool`) serve the server's matches, so one runaway match keeps only one of them busy.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .regex_worker import InvalidPattern

_WORKER = Path(__file__).with_name("regex_worker.py")


class PatternTimeout(Exception):
    """A pattern match did not finish before its deadline (and counts as a failure)."""

    def __init__(self) -> None:
        super().__init__("pattern evaluation took too long")


class RegexProcess:
    """One child running regress; one match at a time, each bounded by a deadline.

    `match_limit` (seconds) is the child's own bound on one match, for when this process is
    killed before it can kill the child: longer than any deadline a caller sets.
    """

    def __init__(self, match_limit: float = 10.0) -> None:
        self._match_limit = match_limit
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._ready = False  # the child said it is ready (regress loaded)
        self._replies: queue.Queue[bytes] = queue.Queue()

    def ready(self, until: float) -> None:
        """Start the child if none runs and wait for it to be ready to match, until `until`
        (monotonic): a match's deadline then counts matching alone, not a start-up."""
        if not self._lock.acquire(timeout=max(0.0, until - time.monotonic())):
            raise PatternTimeout
        try:
            self._await_ready(until)
        finally:
            self._lock.release()

    def search(self, pattern: str, text: str, deadline: float) -> bool:
        """Whether `pattern` matches in `text`; PatternTimeout past `deadline` (monotonic)."""
        if not self._lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise PatternTimeout
        try:
            # A lone surrogate raises UnicodeEncodeError here, as it does in regress.
            request = json.dumps([pattern, text], ensure_ascii=False).encode() + b"\n"
            try:
                reply = self._exchange(request, deadline)
            except BrokenPipeError:  # the child died (killed from outside): once more, anew
                reply = self._exchange(request, deadline)
        finally:
            self._lock.release()
        if reply == b"!":
            raise InvalidPattern(pattern)
        if reply not in (b"0", b"1"):
            raise RuntimeError(f"the regex worker failed: {reply.decode(errors='replace')}")
        return reply == b"1"

    def start(self) -> None:
        """Start the child if none runs."""
        with self._lock:
            self._started()

    def close(self) -> None:
        """End the child (a new one starts on the next match)."""
        child, self._child = self._child, None
        if child is not None:
            child.kill()
            child.wait()
            if child.stdin is not None:
                child.stdin.close()  # stdout is the reader thread's to close, at its end

    def _await_ready(self, until: float) -> None:
        self._started()
        if self._ready:
            return
        try:
            line = self._replies.get(timeout=max(0.0, until - time.monotonic()))
        except queue.Empty:
            raise PatternTimeout from None  # still starting: kept for the next caller
        if line != b"+\n":
            self.close()
            raise BrokenPipeError("the regex worker did not start")
        self._ready = True

    def _exchange(self, request: bytes, deadline: float) -> bytes:
        self._await_ready(deadline)
        child = self._started()
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write(request)
            child.stdin.flush()
            reply = self._replies.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.close()  # stuck: never reuse it
            self._started()  # its successor starts now, not in the next match's time
            raise PatternTimeout from None
        except BaseException:
            self.close()
            raise
        if not reply.endswith(b"\n"):
            self.close()
            raise BrokenPipeError("the regex worker exited")
        return reply.rstrip(b"\n")

    def _started(self) -> subprocess.Popen[bytes]:
        if self._child is None:
            self._child = subprocess.Popen(
                # -P: the script's folder (this package, whose http.py and errors.py
                # would shadow the standard library's) is not put on sys.path.
                [sys.executable, "-u", "-P", str(_WORKER), str(self._match_limit)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
            # Replies are read by a thread: waiting on a queue has a timeout on every OS,
            # where `select` on a pipe does not work on Windows.
            self._ready = False
            self._replies = queue.Queue()
            threading.Thread(
                target=_forward, args=(self._child, self._replies), daemon=True
            ).start()
        return self._child


def _forward(child: subprocess.Popen[bytes], replies: queue.Queue[bytes]) -> None:
    """Put each reply line of `child` on `replies`; an empty one when it exits."""
    assert child.stdout is not None
    with child.stdout:
        for line in child.stdout:
            replies.put(line)
    replies.put(b"")


class _Wait:
    """A caller waiting for a child; `process` is set when one is handed over."""

    def __init__(self) -> None:
        self.handed = threading.Event()
        self.process: RegexProcess | None = None


class RegexPool:
    """Up to `size` children, each lent to one caller at a time, started as callers need them.

    A returned child goes straight to the caller that has waited longest: one that arrives
    just then does not take it first, so callers are served in the order they asked.
    """

    def __init__(self, size: int, match_limit: float) -> None:
        self._size = size
        self._match_limit = match_limit
        self._lock = threading.Lock()
        self._idle: list[RegexProcess] = []
        self._made = 0
        self._waiting: deque[_Wait] = deque()

    def start(self) -> None:
        """Start the first child now, so that its start-up does not eat a match's time."""
        with self._lock:
            if self._made:
                return
            self._made = 1
            process = RegexProcess(self._match_limit)
        try:
            process.start()
        finally:
            self._give_back(process)

    @contextmanager
    def lent(self, until: float) -> Iterator[RegexProcess]:
        """A child for this caller alone; PatternTimeout if none is free by `until` (monotonic)."""
        process = self._borrow(until)
        try:
            yield process
        finally:
            self._give_back(process)

    def _borrow(self, until: float) -> RegexProcess:
        with self._lock:
            if self._idle:
                return self._idle.pop()
            if self._made < self._size:
                self._made += 1
                return RegexProcess(self._match_limit)
            wait = _Wait()
            self._waiting.append(wait)
        wait.handed.wait(max(0.0, until - time.monotonic()))
        with self._lock:
            if wait.process is None:  # not handed over in time
                self._waiting.remove(wait)
                raise PatternTimeout
            return wait.process

    def _give_back(self, process: RegexProcess) -> None:
        with self._lock:
            if not self._waiting:
                self._idle.append(process)
                return
            wait = self._waiting.popleft()
            wait.process = process
        wait.handed.set()
