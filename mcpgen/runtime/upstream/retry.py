"""When to send a request again, and after how long. Pure: the clock and the dice are passed
in, so the timing is computed (and tested) without waiting.

Retried: 429 and 503 answers, whatever the method (the API says it did not do the work), and
connection failures of idempotent methods. The wait is exponential backoff with jitter, or
the answer's `Retry-After` (seconds or an HTTP date) when it gives one; a `Retry-After` beyond
`MAX_RETRY_AFTER` is not waited for: the call fails at once and says when to try again.
"""

from __future__ import annotations

import email.utils
from collections.abc import Callable

RETRY_STATUSES = frozenset({429, 503})
BACKOFF_BASE = 0.5  # seconds before the first retry, doubled each time
BACKOFF_CAP = 8.0
MAX_RETRY_AFTER = 30.0


def retry_after_seconds(header: str | None, now: float) -> float | None:
    """`Retry-After` as seconds from `now` (a POSIX time); None when absent or unreadable."""
    if not header:
        return None
    value = header.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # an HTTP date is GMT
        return None
    return max(0.0, float(when.timestamp()) - now)


def backoff(attempt: int, dice: Callable[[], float]) -> float:
    """Seconds before retry number `attempt` (0 for the first): half fixed, half random, so
    many clients refused at once do not all come back at the same instant."""
    ceiling = min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt)
    return float(ceiling / 2 + dice() * ceiling / 2)


def retry_delay(attempt: int, retry_after: float | None, dice: Callable[[], float]) -> float | None:
    """Seconds to wait before retry `attempt`, or None when the wait asked for is too long."""
    if retry_after is None:
        return backoff(attempt, dice)
    if retry_after > MAX_RETRY_AFTER:
        return None
    return retry_after
