# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""What a failed call tells the client, and what it leaves for the operator on stderr.

A handler's own words reach the model only through `ToolError`: any other exception may carry
a connection string, a path or a token, so the client gets its type and an error id, and the
message with its traceback goes to the log under the same id.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import logging
import os
import secrets as token_source
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any, AnyStr, Generic

from . import request_secrets

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
        redactor = self._redactor
        held = request_secrets.current()  # the `secret_headers` of the request being served
        if held:
            redactor = Redactor((*held, *redactor.values))
        if not redactor.values:
            return True
        record.msg = redactor.text(record.getMessage())
        record.args = None
        if record.exc_info:
            trace = logging.Formatter().formatException(record.exc_info)
            record.exc_text = redactor.text(trace)
            record.exc_info = None
        if record.stack_info:
            record.stack_info = redactor.text(record.stack_info)
        return True


def redact_logs(redactor: Redactor) -> None:
    """Secrets leave no trace in what the server writes: the redacting filter goes on every
    handler of the root logger, and `sys.stdout` and `sys.stderr` (where a handler's `print`
    goes) write through a `RedactingOutput`, and so do `sys.__stdout__` and `sys.__stderr__`
    (`print(..., file=sys.__stderr__)`)."""
    for handler in logging.getLogger().handlers:
        # One at a time: start-up installs one before the server's policy is known.
        for old in [f for f in handler.filters if isinstance(f, RedactingFilter)]:
            handler.removeFilter(old)
        handler.addFilter(RedactingFilter(redactor))
    # One wrapper per stream, shared by the names that point at it: each holds back what may
    # begin a secret, and two holding parts of one stream would write them out of order.
    wrappers: dict[int, RedactingOutput] = {}
    for name in ("stdout", "stderr", "__stdout__", "__stderr__"):
        stream = getattr(sys, name, None)
        if isinstance(stream, RedactingOutput):
            stream.redactor = redactor
        elif stream is not None:
            wrapper = wrappers.setdefault(id(stream), RedactingOutput(stream, redactor))
            setattr(sys, name, wrapper)
    atexit.unregister(_release_held_output)  # once, however often this runs
    atexit.register(_release_held_output)


def _release_held_output() -> None:
    """At exit, what the redacting streams held back goes out: no secret can follow it."""
    for name in ("stdout", "stderr", "__stdout__", "__stderr__"):
        stream = getattr(sys, name, None)
        if isinstance(stream, RedactingOutput):
            with contextlib.suppress(OSError, ValueError):  # a stream closed or gone
                stream.release()


def _held_length(text: AnyStr, secrets: Iterable[AnyStr]) -> int:
    """How much of the end of `text` may be the start of a secret, to be written only once
    what follows shows it is not (a secret printed in pieces is still redacted whole)."""
    held = 0
    for secret in secrets:
        for length in range(min(len(secret) - 1, len(text)), held, -1):
            if text.endswith(secret[:length]):
                held = length
                break
    return held


class _Redacting(Generic[AnyStr]):
    """Writes to `write` with the secrets' values replaced, across the pieces it is given."""

    def __init__(self, empty: AnyStr) -> None:
        self._held: AnyStr = empty
        self._lock = threading.RLock()  # handler threads print at once

    def write(self, piece: AnyStr, secrets: tuple[AnyStr, ...], out: IO[AnyStr]) -> None:
        with self._lock:
            pending = self._held + piece
            for secret in secrets:
                pending = pending.replace(secret, _redacted_like(secret))
            cut = len(pending) - _held_length(pending, secrets)
            self._held = pending[cut:]
            if cut:
                out.write(pending[:cut])

    def flush(self, out: IO[AnyStr]) -> None:
        # What is held stays held: written now, the start of a secret printed in pieces
        # with `flush=True` between them would go out before the rest could redact it.
        with self._lock:
            out.flush()

    def release(self, out: IO[AnyStr]) -> None:
        """Write what is held: nothing follows that could make it a secret (the exit)."""
        with self._lock:
            held, self._held = self._held, self._held[:0]
            if held:
                out.write(held)
            out.flush()


def _redacted_like(secret: AnyStr) -> AnyStr:
    return REDACTED if isinstance(secret, str) else REDACTED.encode()


class RedactingOutput(io.TextIOBase):
    """A text stream that writes to `stream` without the secrets' values (`sys.stdout`,
    `sys.stderr`: what a handler prints is redacted like a log line). Its `buffer` does the
    same for bytes; what is written to the file descriptor itself is not seen."""

    def __init__(self, stream: IO[str], redactor: Redactor) -> None:
        super().__init__()
        self.stream = stream
        self.redactor = redactor
        self._text: _Redacting[str] = _Redacting("")
        self._bytes: _Redacting[bytes] = _Redacting(b"")
        self._buffer = _RedactingBytes(self)

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # as a text file says it
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._text.write(text, self.redactor.values, self.stream)
        return len(text)

    def write_bytes(self, data: bytes) -> int:
        buffer: IO[bytes] = self.stream.buffer  # type: ignore[attr-defined]
        self.stream.flush()  # what was printed before goes first
        encoding = self.encoding or "utf-8"
        secrets = tuple(value.encode(encoding, "replace") for value in self.redactor.values)
        self._bytes.write(bytes(data), secrets, buffer)
        return len(data)

    def flush(self) -> None:
        self._text.flush(self.stream)
        if hasattr(self.stream, "buffer"):
            self._bytes.flush(self.stream.buffer)

    def release(self) -> None:
        """Write what was held back as the possible start of a secret (at exit)."""
        self._text.release(self.stream)
        if hasattr(self.stream, "buffer"):
            self._bytes.release(self.stream.buffer)

    @property
    def buffer(self) -> _RedactingBytes:
        return self._buffer

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self.stream, "encoding", None) or "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.stream, "errors", None)

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:  # anything else a stream has (line_buffering…)
        if name == "stream":  # not set yet
            raise AttributeError(name)
        return getattr(self.stream, name)


class _RedactingBytes(io.RawIOBase):
    """`RedactingOutput.buffer`: bytes written to the stream, redacted the same way."""

    def __init__(self, output: RedactingOutput) -> None:
        super().__init__()
        self._output = output

    def write(self, data: Any) -> int:
        return self._output.write_bytes(bytes(data))

    def flush(self) -> None:
        self._output.flush()

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._output.fileno()


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
        message = message_of(exc)
        logger.error(
            "tool %r failed (error id %s): %s: %s",
            tool,
            error_id,
            type(exc).__name__,
            message,
            exc_info=(type(exc), exc, exc.__traceback__),
        )
        if self.debug:
            return self.redactor.text(f"Tool {tool!r} failed: {type(exc).__name__}: {message}")
        return f"Tool {tool!r} failed: {type(exc).__name__} (error id {error_id})"

    def tool_error(self, exc: ToolError) -> str:
        return self.redactor.text(message_of(exc))


def message_of(exc: BaseException) -> str:
    """`str(exc)`, or a stand-in when the exception cannot say it: its `__str__` is user
    code, which may raise (or recurse) like any other."""
    try:
        return str(exc)
    except BaseException:  # every kind: what a handler raised must not escape through it
        return f"<{type(exc).__name__} whose message could not be read>"
