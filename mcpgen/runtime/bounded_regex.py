"""Schema pattern matching that cannot stall the server.

A pattern RE2 can run with ECMA-262's meaning (`linear_regex`) is matched in time linear in
the text, whatever its shape: `^(a+)+$` included. Any other pattern (back-references,
look-around, `\\p{…}`, legacy syntax) is matched by regress in a child process
(`regex_process`) under a deadline; a verdict that runs out of time fails closed with
"pattern evaluation took too long", never accepts. The deadline is shared by all the matches
of one verdict, so an object with a thousand keys gets no more time than one with one key.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .linear_regex import linear_pattern
from .regex_process import PatternTimeout, RegexProcess

__all__ = ["VERDICT_BUDGET", "PatternTimeout", "is_linear", "search", "verdict_budget", "warm_up"]

# Seconds of backtracking matches one verdict may take. Ample for a real pattern on a
# real argument (regress does megabytes a millisecond) and still short for a client.
VERDICT_BUDGET = 2.0

_deadline: ContextVar[float | None] = ContextVar("pattern_deadline", default=None)
_backtracking = RegexProcess(match_limit=VERDICT_BUDGET * 2)


def is_linear(pattern: str) -> bool:
    """Whether `pattern` is matched in linear time (no child process, no deadline)."""
    return linear_pattern(pattern) is not None


def search(pattern: str, text: str) -> bool:
    """True when `pattern` matches anywhere in `text`, as ECMA-262 reads it."""
    linear = linear_pattern(pattern)
    if linear is not None:
        # A lone surrogate raises UnicodeEncodeError here, as it does in regress.
        return linear.search(text) is not None
    deadline = _deadline.get()
    if deadline is None:
        deadline = time.monotonic() + VERDICT_BUDGET
    return _backtracking.search(pattern, text, deadline)


def warm_up() -> None:
    """Start the child process now, so that its start-up does not eat a verdict's time."""
    _backtracking.start()


@contextmanager
def verdict_budget(seconds: float = VERDICT_BUDGET) -> Iterator[None]:
    """Every backtracking match inside shares one deadline, `seconds` from now."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)
