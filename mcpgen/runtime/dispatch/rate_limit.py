"""Per-tool rate limits, counted per client: `rate_limit: {calls: N, per: SECONDS}`.

A sliding window: a client may make N calls of the tool in any span of SECONDS; the next one
is refused with a tool error saying when a call will be accepted again. Clients are told
apart by `caller.client_key` (the verified token's subject, else the HTTP session, else the
peer address). Memory is bounded: the windows least recently used are forgotten first, and a
forgotten client starts afresh (it is never refused by mistake, at worst admitted once more).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# (tool, client) pairs whose recent calls are remembered.
MAX_WINDOWS = 100_000


@dataclass(frozen=True)
class RateLimit:
    """At most `calls` calls per `per` seconds."""

    calls: int
    per: float


def retry_message(seconds: float) -> str:
    """The refusal's text: whole seconds, rounded up, never 0."""
    return f"rate limited; retry after {max(1, math.ceil(seconds))} s"


class RateLimits:
    """The limits of a tool table, and the recent calls of each client of each tool."""

    def __init__(
        self,
        limits: Iterable[tuple[str, RateLimit]],
        clock: Callable[[], float] = time.monotonic,
        max_windows: int = MAX_WINDOWS,
    ) -> None:
        self._limits = dict(limits)
        self._clock = clock
        self._max_windows = max_windows
        self._windows: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()

    def __bool__(self) -> bool:
        return bool(self._limits)

    def limits(self, tool: str) -> bool:
        """True when `tool` has a rate limit."""
        return tool in self._limits

    def wait(self, tool: str, client: str) -> float | None:
        """None when `client` may call `tool` now (the call is counted), else the seconds
        until it may."""
        limit = self._limits.get(tool)
        if limit is None:
            return None
        now = self._clock()
        key = (tool, client)
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = deque()
            while len(self._windows) > self._max_windows:
                self._windows.popitem(last=False)
        else:
            self._windows.move_to_end(key)
        while window and window[0] <= now - limit.per:
            window.popleft()
        if len(window) >= limit.calls:
            return window[0] + limit.per - now
        window.append(now)
        return None
