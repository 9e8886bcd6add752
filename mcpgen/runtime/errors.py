"""What a failed call tells the client, and what it leaves for the operator on stderr.

A handler's own words reach the model only through `ToolError`: any other exception may carry
a connection string, a path or a token, so the client gets its type and an error id, and the
message with its traceback goes to the log under the same id.
"""

from __future__ import annotations

import logging
import os
import secrets as token_source
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

# Shorter values are left alone: replacing every "1" in every reply would hide nothing and
# garble everything.
MIN_SECRET_LENGTH = 4
REDACTED = "[redacted]"
QUOTE_LIMIT = 120


class ToolError(Exception):
    """Raise it in a handler to answer with its message as the tool's error text."""


def new_error_id() -> str:
    return token_source.token_hex(6)


@dataclass(frozen=True)
class Redactor:
    """Replaces the values of secret environment variables wherever they appear."""

    values: tuple[str, ...] = ()

    @classmethod
    def from_environment(cls, names: Iterable[str]) -> Redactor:
        found = {os.environ.get(name, "") for name in names}
        # Longest first, so a secret that contains another is replaced whole.
        kept = sorted((v for v in found if len(v) >= MIN_SECRET_LENGTH), key=len, reverse=True)
        return cls(tuple(kept))

    def text(self, text: str) -> str:
        for value in self.values:
            if value in text:
                text = text.replace(value, REDACTED)
        return text

    def value(self, data: Any) -> Any:
        """`data` (plain JSON) with every string redacted; the same object when nothing is."""
        if not self.values:
            return data
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, dict):
            return {self.text(k): self.value(v) for k, v in data.items()}
        if isinstance(data, list):
            return [self.value(item) for item in data]
        return data


class RedactingFilter(logging.Filter):
    """A handler filter: log lines (message, arguments and traceback) lose their secrets."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self._redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._redactor.values:
            return True
        record.msg = self._redactor.text(record.getMessage())
        record.args = None
        if record.exc_info:
            trace = logging.Formatter().formatException(record.exc_info)
            record.exc_text = self._redactor.text(trace)
            record.exc_info = None
        if record.stack_info:
            record.stack_info = self._redactor.text(record.stack_info)
        return True


def redact_logs(redactor: Redactor) -> None:
    """Install the redacting filter on every handler of the root logger."""
    for handler in logging.getLogger().handlers:
        # One at a time: start-up installs one before the server's policy is known.
        for old in [f for f in handler.filters if isinstance(f, RedactingFilter)]:
            handler.removeFilter(old)
        handler.addFilter(RedactingFilter(redactor))


def quote(value: str, limit: int = QUOTE_LIMIT) -> str:
    """`value` cut to its first `limit` characters, saying how much was left out."""
    if len(value) <= limit:
        return value
    return f"{value[:limit]}… ({len(value) - limit} more characters)"


def shortened(text: str, limit: int) -> str:
    """`text` cut in the middle to about `limit` characters: a problem line keeps its path
    (the head) and its reason (the tail), and quotes only a prefix of the value between."""
    if len(text) <= limit:
        return text
    tail = limit // 3
    return f"{text[: limit - tail]}… ({len(text) - limit} characters left out) …{text[-tail:]}"


@dataclass
class ErrorPolicy:
    """How much of an unexpected exception the client sees (`debug`: all of it)."""

    debug: bool = False
    redactor: Redactor = field(default_factory=Redactor)

    def unexpected(self, tool: str, exc: BaseException) -> str:
        """The client's text for an exception that is not a `ToolError`; logs the rest."""
        error_id = new_error_id()
        logger.error(
            "tool %r failed (error id %s): %s: %s",
            tool,
            error_id,
            type(exc).__name__,
            exc,
            exc_info=(type(exc), exc, exc.__traceback__),
        )
        if self.debug:
            return self.redactor.text(f"Tool {tool!r} failed: {type(exc).__name__}: {exc}")
        return f"Tool {tool!r} failed: {type(exc).__name__} (error id {error_id})"

    def tool_error(self, exc: ToolError) -> str:
        return self.redactor.text(str(exc))
