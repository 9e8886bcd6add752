# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Connections that never finish a request's head: closed after a deadline, and the oldest
let go first when too many wait at once.

uvicorn's h11 protocol gives a connection all the time it likes to send a request line and
headers (a keep-alive timer runs only between requests, and stops at the first byte), so a
client that sends its head a byte at a time, or nothing at all, holds a socket and a file
descriptor for good, and a few thousand such clients hold them all ("slowloris"). The
protocol here is uvicorn's own, with two additions: a connection gets `head_timeout` seconds
to send a complete request head (from when it opens, or from the first byte of the next
request on a kept-alive connection), else it gets 408 and is closed; and when more than
`max_waiting` connections are waiting for their head, the one that has waited longest is
closed to make room, so a client that sends its request at once is always served.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

DEFAULT_HEAD_TIMEOUT = 10.0
DEFAULT_MAX_WAITING = 4096
# File descriptors left to everything else (sessions' streams, logs, a handler's files).
SPARE_DESCRIPTORS = 256
_TIMEOUT_TEXT = b"the request head was not received in time\n"
_REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_TIMEOUT_TEXT), _TIMEOUT_TEXT)
)


def max_waiting(wanted: int = DEFAULT_MAX_WAITING) -> int:
    """How many connections may wait for their head: `wanted`, within the descriptors the
    process may open (the oldest is let go before `accept` could fail for want of one)."""
    try:
        import resource  # noqa: PLC0415  (POSIX only)

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return wanted
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(16, min(wanted, (soft - SPARE_DESCRIPTORS) // 2))


class _Waiting:
    """The connections of one server waiting for a request head, oldest first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._connections: OrderedDict[HeadDeadlineProtocol, None] = OrderedDict()

    def add(self, connection: HeadDeadlineProtocol) -> None:
        self._connections[connection] = None
        while len(self._connections) > self.limit:
            oldest, _ = self._connections.popitem(last=False)
            oldest.give_up()

    def discard(self, connection: HeadDeadlineProtocol) -> None:
        self._connections.pop(connection, None)

    def __len__(self) -> int:
        return len(self._connections)


class HeadDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for every request head (see the module)."""

    head_timeout = DEFAULT_HEAD_TIMEOUT
    waiting = _Waiting(DEFAULT_MAX_WAITING)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        super().connection_lost(exc)

    def _watch_head(self) -> None:
        """Start the deadline when a request head is due, stop it once one has come."""
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            self._stop_watching()
        elif self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.head_timeout, self.give_up)
            self.waiting.add(self)

    def _stop_watching(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None
        self.waiting.discard(self)

    def give_up(self) -> None:
        """408 and close: the head did not come in time, or room is needed for others."""
        self._stop_watching()
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            return
        with contextlib.suppress(Exception):  # a transport that is going anyway
            self.transport.write(_REQUEST_TIMEOUT)
        self.transport.close()


def protocol(head_timeout: float, max_waiting_heads: int) -> type[HeadDeadlineProtocol]:
    """The protocol class for one server's uvicorn `Config(http=...)`."""
    return type(
        "ServerProtocol",
        (HeadDeadlineProtocol,),
        {"head_timeout": head_timeout, "waiting": _Waiting(max_waiting_heads)},
    )
