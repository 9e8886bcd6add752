# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Schema pattern matching that cannot stall the server.

A pattern RE2 can run with ECMA-262's meaning (`linear_regex`) is matched in time linear in
the text, whatever its shape: `^(a+)+$` included. Any other pattern (back-references,
look-around, `\\p{…}`, legacy syntax) is matched by regress in a child process
(`regex_process`) under a deadline; a verdict that runs out of time fails closed with
"pattern evaluation took too long", never accepts.

A verdict's budget counts its own matching time only, shared by all its matches (an object
with a thousand keys gets no more time than one with one key); the time it waits for its turn
is bounded apart. Each schema has its own `Lane`, which matches one at a time: calls flooding
one schema with runaway matches keep one child busy and wait behind each other, while the
verdicts of other schemas take the pool's other children.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from .linear_regex import linear_pattern
from .regex_process import PatternTimeout, RegexPool

__all__ = [
    "VERDICT_BUDGET",
    "Lane",
    "PatternTimeout",
    "is_linear",
    "search",
    "verdict_budget",
    "waiting_since",
    "warm_up",
]

# Seconds of backtracking matches one verdict may take. Ample for a real pattern on a
# real argument (regress does megabytes a millisecond) and still short for a client.
VERDICT_BUDGET = 2.0
# How long a verdict may wait for its turn (its lane, a free child), as a multiple of its
# budget: past it, the verdict fails closed like one out of time.
PATIENCE = 2.0
# Children matching at once: two at least, so that one runaway match never holds them all.
CHILDREN = max(2, min(4, os.cpu_count() or 1))

_children = RegexPool(CHILDREN, match_limit=VERDICT_BUDGET * 2)


class Lane:
    """The backtracking matches of one schema, one at a time."""

    def __init__(self) -> None:
        self.turn = threading.Lock()


# Matches made outside any schema's verdict.
_SHARED_LANE = Lane()


@dataclass
class _Verdict:
    """One verdict's matching seconds left, and the moment it stops waiting (monotonic)."""

    lane: Lane
    budget: float
    until: float

    def search(self, pattern: str, text: str) -> bool:
        if self.budget <= 0 or time.monotonic() >= self.until:
            raise PatternTimeout
        if not self.lane.turn.acquire(timeout=self.until - time.monotonic()):
            raise PatternTimeout
        try:
            with _children.lent(self.until) as child:
                child.ready(self.until)
                started = time.monotonic()
                try:
                    return child.search(pattern, text, started + self.budget)
                finally:
                    self.budget -= time.monotonic() - started
        finally:
            self.lane.turn.release()


_verdict: ContextVar[_Verdict | None] = ContextVar("pattern_verdict", default=None)
# When the call whose verdict this is arrived (monotonic), if it waited for a thread first.
_arrival: ContextVar[float | None] = ContextVar("pattern_call_arrival", default=None)


def is_linear(pattern: str) -> bool:
    """Whether `pattern` is matched in linear time (no child process, no deadline)."""
    return linear_pattern(pattern) is not None


def search(pattern: str, text: str) -> bool:
    """True when `pattern` matches anywhere in `text`, as ECMA-262 reads it."""
    linear = linear_pattern(pattern)
    if linear is not None:
        # A lone surrogate raises UnicodeEncodeError here, as it does in regress.
        return linear.search(text) is not None
    verdict = _verdict.get()
    if verdict is None:
        with verdict_budget():
            return search(pattern, text)
    return verdict.search(pattern, text)


def warm_up() -> None:
    """Start a child process now, so that its start-up does not eat a verdict's time."""
    _children.start()


@contextmanager
def waiting_since(arrival: float) -> Iterator[None]:
    """Verdicts inside count their wait from `arrival` (monotonic), not from their start:
    calls queued for a verdict thread behind a flood give up with the flood, not after it."""
    token = _arrival.set(arrival)
    try:
        yield
    finally:
        _arrival.reset(token)


@contextmanager
def verdict_budget(seconds: float = VERDICT_BUDGET, lane: Lane | None = None) -> Iterator[None]:
    """Every backtracking match inside shares `seconds` of matching time, on `lane`; past
    `PATIENCE` times that spent waiting as well, the verdict is out of time."""
    arrival = _arrival.get()
    until = (time.monotonic() if arrival is None else arrival) + seconds * (1 + PATIENCE)
    token = _verdict.set(_Verdict(lane or _SHARED_LANE, seconds, until))
    try:
        yield
    finally:
        _verdict.reset(token)
