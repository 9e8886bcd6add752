"""Backtracking matches run in a child process, given up on at a deadline.

regress holds the GIL while it matches, so in-process a runaway match (`(a+)+\\1` against
thirty `a`s) freezes every thread of the server and no timeout can fire. In a child
process it blocks nothing but that process: the caller waits on a pipe (the GIL free), and at
its deadline kills the child, which is started again for the next match.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
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
        self._replies: queue.Queue[bytes] = queue.Queue()

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

    def _exchange(self, request: bytes, deadline: float) -> bytes:
        child = self._started()
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write(request)
            child.stdin.flush()
            reply = self._replies.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.close()  # stuck: never reuse it
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
