# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The secret values the current request carries (its `secret_headers`), for the log filter.

A header's value is known only when its request arrives, so it cannot join the redactor's
fixed list: it is held in a context variable for the task serving that request (and the
worker thread running its sync handler, which copies the task's context), where every log
line is written.
"""

from __future__ import annotations

from contextvars import ContextVar

MIN_LENGTH = 4
_CURRENT: ContextVar[tuple[str, ...]] = ContextVar("mcpgen_request_secrets", default=())


def hold(values: tuple[str, ...]) -> None:
    """Redact `values` from the log lines the current task writes from now on."""
    # As for the redactor's own values, shorter ones would garble every line and hide nothing.
    kept = {value for value in values if len(value) >= MIN_LENGTH}
    if kept:
        # Longest first, so a secret that contains another is replaced whole.
        _CURRENT.set(tuple(sorted(kept, key=len, reverse=True)))


def current() -> tuple[str, ...]:
    """The values the current request asked to be kept out of the logs."""
    return _CURRENT.get()
