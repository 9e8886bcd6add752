# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The stdio byte pump: newline-delimited JSON-RPC between two file descriptors and `Server`.

The SDK's own stdio transport hands every read, write and flush to a worker thread. This one
reads and writes the pipes on the event loop (asyncio pipe transports), parses every line a
read brought at once, and writes all the answers queued meanwhile in one write. The SDK still
does the protocol: it receives parsed messages and sends answers through memory streams, and
handles pipelined requests concurrently, one task each. Given a `FastPath`, the hot requests
of an initialized session are answered without that relay (see `fast_path`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import selectors
import signal
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import pydantic_core
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel.server import Server
from mcp.shared.message import SessionMessage
from mcp.types import (
    INTERNAL_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    RequestId,
    jsonrpc_message_adapter,
)

from ..core.defaults import DEFAULT_MAX_BODY_BYTES
from ..core.draining import ANSWERED_WHILE_DRAINING, SHUTTING_DOWN, SHUTTING_DOWN_MESSAGE
from ..core.message_id import EDGE_BYTES
from ..core.message_id import request_id as read_request_id
from ..core.tool_table import encode_json
from .fast_path import FastPath
from .line_errors import error_for, too_long, unusable_id
from .opening import Handover

logger = logging.getLogger(__name__)

CHUNK = 1 << 16
# Messages the pump may hold for the server, and answers for the writer, before it waits.
QUEUE = 64
# After stdin closes, how long calls still running may take to be answered before the SDK
# cancels them (it then answers "Connection closed").
DRAIN_SECONDS = 30.0

Inbound = SessionMessage | Exception


async def serve_fds(  # noqa: PLR0913  (the connection, its parts and its past)
    server: Server[Any],
    read_fd: int,
    write_fd: int,
    fast: FastPath | None = None,
    max_line: int = DEFAULT_MAX_BODY_BYTES,
    *,
    opening: Handover | None = None,
) -> None:
    """Serve one connection reading `read_fd` and writing `write_fd` until the input ends.

    When the input ends, calls still running are answered (for up to `DRAIN_SECONDS`) before
    the server stops. Neither descriptor is closed. A line longer than `max_line` bytes is
    answered with an error (with its id, when its edges show it) and dropped without being
    held. `opening`: the session so far,
    answered by `stdio.opening` (its handshake is replayed, then its unread input comes first).
    """
    to_server, server_reads = anyio.create_memory_object_stream[Inbound](QUEUE)
    server_writes, to_writer = anyio.create_memory_object_stream[SessionMessage](QUEUE)
    pending = _Pending()
    async with await _Output.open(write_fd) as output, anyio.create_task_group() as tasks:
        writer = _Writer(to_writer, output, pending, fast, opening)
        tasks.start_soon(writer.run)
        reading, input_open = anyio.CancelScope(), anyio.CancelScope()
        inbound = _Inbound(to_server, server_writes.clone(), pending, fast, max_line)
        source = _Source(read_fd, opening, writer.replayed, inbound.drain)
        with _sigterm_drains(inbound.drain):
            if fast is None:
                tasks.start_soon(_read_loop, reading, source, inbound, input_open, max_line)
                await server.run(
                    server_reads, server_writes, server.create_initialization_options()
                )
            else:
                async with fast.serving(server_writes.clone(), writer.write_now):
                    tasks.start_soon(_read_loop, reading, source, inbound, input_open, max_line)
                    await server.run(
                        server_reads, server_writes, server.create_initialization_options()
                    )
        reading.cancel()  # in case the server stopped before the input ended
        # Every answer is queued now; a client that stopped reading gets them for this long.
        tasks.cancel_scope.deadline = anyio.current_time() + DRAIN_SECONDS


class _Drain:
    """Set by SIGTERM: the calls in flight are answered, then the input ends as at end of
    file. Meanwhile the client is still read: what needs no handler (`draining`) is
    answered as usual, a request that would start new work is refused with its id."""

    def __init__(self) -> None:
        self.started = anyio.Event()

    async def end_input_when_answered(
        self, pending: _Pending, input_open: anyio.CancelScope
    ) -> None:
        await self.started.wait()
        with anyio.move_on_after(DRAIN_SECONDS):
            await pending.answered()
        input_open.cancel()


@contextlib.contextmanager
def _sigterm_drains(drain: _Drain) -> Iterator[None]:
    """SIGTERM starts the drain; the server then exits 0. A second SIGTERM kills at once.
    Only the main thread can do this."""
    loop = asyncio.get_running_loop()

    def first_sigterm() -> None:
        drain.started.set()
        loop.remove_signal_handler(signal.SIGTERM)  # back to the default: a second one kills

    try:
        previous = signal.getsignal(signal.SIGTERM)
        loop.add_signal_handler(signal.SIGTERM, first_sigterm)
    except (ValueError, RuntimeError, NotImplementedError, AttributeError):
        yield  # not the main thread, or no SIGTERM (Windows)
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        if previous is not None:  # None: set outside Python, and not restorable from here
            signal.signal(signal.SIGTERM, previous)


# --- reading --------------------------------------------------------------------------------


class _Pending:
    """Ids of the requests the server has not answered yet (an id reused while its first
    request runs counts twice: it is answered twice).

    Refusals answered at once (`refused`) are counted apart: their answers must not count
    off a running request of the same id, and a client that keeps sending what is refused
    must not keep the drain waiting."""

    def __init__(self) -> None:
        self._ids: Counter[RequestId] = Counter()
        self._refused: Counter[RequestId] = Counter()
        self._none_left = anyio.Event()
        self._none_left.set()

    def add(self, request_id: RequestId) -> None:
        if not self._ids:
            self._none_left = anyio.Event()
        self._ids[request_id] += 1

    def refused(self, request_id: RequestId) -> None:
        self._refused[request_id] += 1

    def discard(self, request_id: object) -> None:
        """An answer to `request_id` went out."""
        if isinstance(request_id, str | int) and self._refused[request_id]:
            self._refused[request_id] -= 1
            if not self._refused[request_id]:
                del self._refused[request_id]
            return
        self.forget(request_id)

    def forget(self, request_id: object) -> None:
        """`request_id` will not be answered (cancelled), or was answered."""
        if not isinstance(request_id, str | int) or request_id not in self._ids:
            return
        self._ids[request_id] -= 1
        if not self._ids[request_id]:
            del self._ids[request_id]
        if not self._ids:
            self._none_left.set()

    async def answered(self) -> None:
        await self._none_left.wait()


class _Inbound:
    """Where a parsed line goes: the SDK, the fast path, or (unreadable) an error answer."""

    def __init__(
        self,
        to_server: MemoryObjectSendStream[Inbound],
        to_writer: MemoryObjectSendStream[SessionMessage],
        pending: _Pending,
        fast: FastPath | None,
        max_line: int,
    ) -> None:
        self.to_server = to_server
        self.to_writer = to_writer
        self.pending = pending
        self._fast = fast
        self.max_line = max_line
        self.drain = _Drain()  # started by SIGTERM

    async def accept(self, line: bytes | TooLong) -> None:
        """Route one line, or answer one dropped as too long."""
        if isinstance(line, TooLong):
            await self._answer_at_once(line.request_id, too_long(self.max_line, line.request_id))
            return
        if not line.strip():
            return
        message = await self._parsed(line)
        if message is None:
            return
        fast = self._fast
        if isinstance(message, JSONRPCRequest):
            if self.drain.started.is_set() and message.method not in ANSWERED_WHILE_DRAINING:
                await self._answer_at_once(message.id, _shutting_down(message.id))
                return
            self.pending.add(message.id)
            if fast is not None and fast.takes(message):
                return
        elif (
            isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled"
        ):
            # A cancelled request is never answered: do not wait for it at the end.
            request_id = (message.params or {}).get("requestId")
            # Any other value names no request (and a list or an object cannot be looked up).
            if isinstance(request_id, str | int):
                self.pending.forget(request_id)
                if fast is not None and fast.cancel(request_id):
                    return
        try:
            await self.to_server.send(SessionMessage(message))
        except BaseException:  # the input ended (SIGTERM) first: the server never sees it
            if isinstance(message, JSONRPCRequest):
                self.pending.forget(message.id)
            raise

    async def _parsed(self, line: bytes) -> Any:
        """The message on `line`; None once a line that holds none is answered."""
        try:
            message = jsonrpc_message_adapter.validate_json(line, by_name=False)
            if isinstance(message, JSONRPCNotification) and _has_an_id(line):
                # The SDK's reading of a request whose id is neither a string nor an integer
                # (`1.5`, `true`, `null`): a notification, never answered. Its caller waits.
                await self.to_writer.send(SessionMessage(unusable_id()))
                return None
            return message
        except Exception as exc:  # not JSON, or not JSON-RPC: answered here, the SDK drops these
            replaced = _as_text(line)
            if replaced is not None:  # bytes that are not UTF-8: read as the SDK reads them
                return await self._parsed(replaced)
            lenient = _with_lone_surrogates(line)
            if lenient is None:  # answered with its id, if it shows one: its caller waits
                request_id = _unread_request_id(line)
                await self._answer_at_once(request_id, error_for(exc, request_id))
            return lenient

    async def _answer_at_once(self, request_id: RequestId | None, error: JSONRPCError) -> None:
        """Answer a request that goes to no handler with `error`."""
        if request_id is not None:
            self.pending.refused(request_id)  # counted off as its answer is sent
        await self.to_writer.send(SessionMessage(error))


def _has_an_id(line: bytes) -> bool:
    """Whether the JSON object on `line` has a top-level `id` (looked for only where the
    text names one: notifications never do)."""
    if b'"id"' not in line:
        return False
    try:
        return "id" in pydantic_core.from_json(line)
    except (ValueError, TypeError):
        return False


def _unread_request_id(line: bytes) -> RequestId | None:
    """The id of the request on a line that could not be read; None for a line that holds
    no request (an answer to the server's own request has an id, and no `method`)."""
    if b'"method"' not in line:
        return None
    return read_request_id(line[:EDGE_BYTES], line[-EDGE_BYTES:])


def _shutting_down(request_id: RequestId) -> JSONRPCError:
    error = ErrorData(code=SHUTTING_DOWN, message=SHUTTING_DOWN_MESSAGE)
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=error)


def _as_text(line: bytes) -> bytes | None:
    """`line` with every byte sequence that is not UTF-8 replaced by U+FFFD, as the SDK's
    `stdio_server` reads its input; None for a line that is UTF-8 already."""
    try:
        line.decode()
    except UnicodeDecodeError:
        return line.decode(errors="replace").encode()
    return None


def _with_lone_surrogates(line: bytes) -> Any:
    """The message in `line` if only its lone surrogate escapes (`"\\udc80"`, valid JSON,
    which a JavaScript client sends for a string cut in half) kept the strict parser from
    reading it; else None. A request refused for that would lose its id, and its caller
    would wait for an answer forever."""
    if b"\\ud" not in line.lower():
        return None
    try:
        return jsonrpc_message_adapter.validate_python(
            json.loads(line, parse_constant=_no_constant), by_name=False
        )
    except Exception:  # unreadable either way: the strict parser's error stands
        return None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


class _Source:
    """The input: the session `stdio.opening` opened (its handshake, then what it left unread), if
    any, then the descriptor, unless the input ended during the opening."""

    def __init__(
        self, fd: int, opening: Handover | None, replayed: anyio.Event, drain: _Drain
    ) -> None:
        self.fd = fd
        self.opening = opening
        self.replayed = replayed  # set when the answer to the replayed `initialize` is dropped
        self.drain = drain

    async def replay(self, inbound: _Inbound) -> None:
        """Bring the SDK's session to where the opening left it, one step at a time, as a
        client would: `initialize`, its answer (dropped by the writer), `initialized`."""
        if self.opening is None:
            return
        for line in self.opening.replay:
            await inbound.accept(line)
            # The SDK answers `initialize` before it reads on; the bound is for a session
            # that never does, which then goes on as it can.
            with anyio.move_on_after(DRAIN_SECONDS):
                await self.replayed.wait()

    async def chunks(self) -> AsyncIterator[bytes]:
        if self.opening is not None:
            yield self.opening.unread
            # A SIGTERM before the SDK's session watched for it starts the drain here: what
            # was read before it is answered, as the calls in flight at a SIGTERM are.
            if self.opening.ended:
                return
            if self.opening.terminated():
                self.drain.started.set()
        async for chunk in _chunks(self.fd):
            yield chunk


async def _read_loop(
    scope: anyio.CancelScope,
    source: _Source,
    inbound: _Inbound,
    input_open: anyio.CancelScope,
    max_line: int,
) -> None:
    async with inbound.to_server, inbound.to_writer:
        with scope:
            async with anyio.create_task_group() as draining:
                draining.start_soon(
                    inbound.drain.end_input_when_answered, inbound.pending, input_open
                )
                with input_open:  # cancelled: the input ends here (drained), as at end of file
                    await source.replay(inbound)
                    lines = _Lines(max_line)
                    async for chunk in source.chunks():
                        for line in lines.feed(chunk):
                            await inbound.accept(line)
                    for line in lines.end():  # a last unended line
                        await inbound.accept(line)
                draining.cancel_scope.cancel()
            with anyio.move_on_after(DRAIN_SECONDS):
                await inbound.pending.answered()


@dataclass(frozen=True)
class TooLong:
    """A line longer than the limit, dropped unread but for the id its edges show."""

    request_id: RequestId | None


class _Lines:
    """Splits the input into lines, none longer than `limit` bytes.

    Lines end as the SDK's `stdio_server` (a text stream with universal newlines) ends them:
    at "\n", "\r\n" or a lone "\r".

    A longer line is never held whole: its bytes are dropped as they come but for its first
    and last `EDGE_BYTES`, where its id is looked for, and it is answered with an error
    carrying that id (a `TooLong` in place of the line) once its end arrives, so a client
    that never sends a newline cannot make the server's memory grow without bound.
    """

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._buffer = bytearray()
        self._dropping = False  # inside a line already known to be too long
        self._head = b""  # the dropped line's first bytes
        self._tail = b""  # and its last ones so far
        self._cr = False  # the last chunk ended in "\r": a "\n" first in the next is its end

    def feed(self, chunk: bytes) -> list[bytes | TooLong]:
        if self._cr or b"\r" in chunk:
            chunk = self._newlines(chunk)
        return self._split(chunk)

    def _split(self, chunk: bytes) -> list[bytes | TooLong]:
        self._buffer += chunk
        end = self._buffer.rfind(b"\n")
        if end < 0:
            self._hold_or_drop()
            return []
        lines: list[bytes | TooLong] = []
        for line in bytes(self._buffer[:end]).split(b"\n"):
            if self._dropping:
                self._keep_tail(line)
                lines.append(self._refused())
            elif len(line) > self._limit:
                lines.append(TooLong(read_request_id(line[:EDGE_BYTES], line[-EDGE_BYTES:])))
            else:
                lines.append(line)
        del self._buffer[: end + 1]
        self._hold_or_drop()
        return lines

    def end(self) -> list[bytes | TooLong]:
        # Input that ended in "\r" ended its last line.
        lines = self._split(self._newlines(b"", final=True)) if self._cr else []
        if self._dropping:
            return [*lines, self._refused()]
        return [*lines, bytes(self._buffer)]

    def _newlines(self, chunk: bytes, final: bool = False) -> bytes:
        """`chunk` with its line ends made "\n"; a last "\r" is held back (unless `final`):
        it may be the first half of a "\r\n"."""
        if self._cr:
            chunk = b"\r" + chunk
        self._cr = not final and chunk.endswith(b"\r")
        if self._cr:
            chunk = chunk[:-1]
        return chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")

    def _hold_or_drop(self) -> None:
        """Keep the unended line, or only its edges once it is too long."""
        if self._dropping:
            self._keep_tail(self._buffer)
            self._buffer.clear()
        elif len(self._buffer) > self._limit:
            self._dropping = True
            self._head = bytes(self._buffer[:EDGE_BYTES])
            self._keep_tail(self._buffer)
            self._buffer.clear()

    def _keep_tail(self, data: bytes | bytearray) -> None:
        self._tail = (self._tail + data[-EDGE_BYTES:])[-EDGE_BYTES:]

    def _refused(self) -> TooLong:
        refused = TooLong(read_request_id(self._head, self._tail))
        self._dropping, self._head, self._tail = False, b"", b""
        return refused


async def _chunks(fd: int) -> AsyncIterator[bytes]:
    """What `fd` delivers, as it comes, until end of file."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=CHUNK)
    was_blocking = _blocking(fd)
    try:
        if not _pollable(fd):
            raise ValueError("the event loop cannot wait on this descriptor")
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0, closefd=False)
        )
    except (ValueError, OSError, NotImplementedError):
        # A regular file (e.g. `< requests.jsonl`), the null device, or a loop without pipe
        # support: one worker-thread read per chunk, not per message.
        while chunk := await anyio.to_thread.run_sync(os.read, fd, CHUNK):
            yield chunk
        return
    try:
        while chunk := await reader.read(CHUNK):
            yield chunk
    finally:
        transport.close()
        _restore_blocking(fd, was_blocking)  # the descriptor may be shared (a terminal)


def _pollable(fd: int) -> bool:
    """Whether the event loop can wait on `fd`: a pipe, a socket or a terminal can be, a
    regular file or the null device cannot (asyncio would take them, then fail later)."""
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
    except (OSError, ValueError):
        return False
    return True


def _blocking(fd: int) -> bool | None:
    try:
        return os.get_blocking(fd)
    except (OSError, AttributeError):  # Windows before Python 3.12 has no get_blocking
        return None


def _restore_blocking(fd: int, was_blocking: bool | None) -> None:
    if was_blocking is not None:
        with contextlib.suppress(OSError):
            os.set_blocking(fd, was_blocking)


# --- writing --------------------------------------------------------------------------------


class _Flow(asyncio.Protocol):
    """Write flow control for an asyncio pipe transport."""

    def __init__(self) -> None:
        self._writable = asyncio.Event()
        self._writable.set()
        self.lost = False

    @property
    def writable(self) -> bool:
        return self._writable.is_set() and not self.lost

    def pause_writing(self) -> None:
        self._writable.clear()

    def resume_writing(self) -> None:
        self._writable.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._writable.set()

    async def drain(self) -> None:
        await self._writable.wait()
        if self.lost:
            raise BrokenPipeError("the reader of the output went away")


class _Output:
    """`fd` as an awaitable byte sink: an asyncio pipe transport, else plain blocking writes
    (a regular file, which never makes a writer wait long)."""

    def __init__(
        self,
        fd: int,
        transport: asyncio.WriteTransport | None,
        flow: _Flow,
        was_blocking: bool | None,
    ) -> None:
        self._fd = fd
        self._transport = transport
        self._flow = flow
        self._was_blocking = was_blocking

    @classmethod
    async def open(cls, fd: int) -> _Output:
        flow = _Flow()
        was_blocking = _blocking(fd)
        loop = asyncio.get_running_loop()
        try:
            transport, _ = await loop.connect_write_pipe(
                lambda: flow, os.fdopen(fd, "wb", 0, closefd=False)
            )
        except (ValueError, OSError, NotImplementedError):
            return cls(fd, None, flow, was_blocking)
        return cls(fd, transport, flow, was_blocking)

    def write_nowait(self, data: bytes) -> bool:
        """Hand `data` to the pipe now when that cannot block; False (nothing written) else."""
        if self._transport is None or not self._flow.writable:
            return False
        self._transport.write(data)
        return True

    async def write(self, data: bytes) -> None:
        if self._transport is None:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view) :]
            return
        if self._flow.lost:
            raise BrokenPipeError("the reader of the output went away")
        self._transport.write(data)
        await self._flow.drain()

    async def __aenter__(self) -> _Output:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._transport is not None:
            self._transport.close()  # flushes what is buffered, then lets go of the pipe
            with anyio.move_on_after(DRAIN_SECONDS) as waited:
                with contextlib.suppress(BrokenPipeError):
                    await self._flow.drain()
            if waited.cancelled_caught:  # nobody reads the output: what is left is dropped
                self._transport.abort()
            _restore_blocking(self._fd, self._was_blocking)


class _Writer:
    """The one writer of the output. Answers queued meanwhile go out in one write (`run`);
    an answer that finds the writer idle goes out at once (`write_now`), without waking the
    writer task: one turn of the event loop less per call when calls come one at a time."""

    def __init__(
        self,
        answers: MemoryObjectReceiveStream[SessionMessage],
        output: _Output,
        pending: _Pending,
        fast: FastPath | None,
        opening: Handover | None = None,
    ) -> None:
        self._answers = answers
        self._output = output
        self._pending = pending
        self._fast = fast
        self._encoder = Encoder()
        self._broken = False
        # The replayed `initialize`, whose answer the client has had already.
        self._replay: Handover | None = opening if opening and opening.replay else None
        self.replayed = anyio.Event()

    def write_now(self, message: JSONRPCResponse | JSONRPCError) -> bool:
        """Write `message` now if nothing is queued before it; False when it must be queued."""
        queue = self._answers.statistics()
        # The writer task waiting on an empty queue is the only state in which nothing
        # written earlier is still on its way out (order is kept, as for queued answers).
        if self._broken or queue.current_buffer_used or not queue.tasks_waiting_receive:
            return False
        data = self._encoder.encode(message)
        if self._dropped(message, data):
            return True
        if not self._output.write_nowait(data):
            return False
        self._sent([message])
        return True

    def _dropped(self, message: Any, data: bytes) -> bool:
        """True for the SDK's answer to the replayed `initialize` (then taken as sent)."""
        replay = self._replay
        if replay is None or not isinstance(message, (JSONRPCResponse, JSONRPCError)):
            return False
        if message.id != replay.replay_id or type(message.id) is not type(replay.replay_id):
            return False
        self._replay = None
        if data != replay.answered:
            logger.warning(
                "the handshake answered at start-up differs from the SDK's: %r, then %r",
                replay.answered,
                data,
            )
        self._sent([message])
        self.replayed.set()
        return True

    def _sent(self, messages: list[Any]) -> None:
        for message in messages:
            if isinstance(message, (JSONRPCResponse, JSONRPCError)):
                self._pending.discard(message.id)
                if self._fast is not None:
                    self._fast.answered(message)

    async def run(self) -> None:
        """Write answers as they come; all those queued meanwhile go out in one write."""
        answers = self._answers
        async with answers:
            async for first in answers:
                batch = [first]
                while True:
                    try:
                        batch.append(answers.receive_nowait())
                    except (anyio.WouldBlock, anyio.EndOfStream):
                        break
                encoded = [(item.message, self._encoder.encode(item.message)) for item in batch]
                kept = [(m, d) for m, d in encoded if not self._dropped(m, d)]
                data = b"".join(d for _, d in kept)
                self._sent([m for m, _ in kept])
                if not data:
                    continue
                if self._broken:
                    continue  # keep taking answers, so the server never waits on a dead pipe
                try:
                    await self._output.write(data)
                except OSError as exc:
                    logger.warning("stdout closed: answers are dropped from now on (%s)", exc)
                    self._broken = True


class Encoder:
    """`encode`, with the tool list of a tools/list answer serialised once.

    The dispatcher answers every tools/list with the same list object, never changed, so its
    JSON is kept by identity and only the envelope around it is encoded per answer.
    """

    def __init__(self) -> None:
        self._tools: object = None
        self._tools_json = b""

    def encode(self, message: Any) -> bytes:
        result = getattr(message, "result", None)
        if not isinstance(message, JSONRPCResponse) or not isinstance(result, dict):
            return encode(message)
        tools = result.get("tools")
        if not isinstance(tools, list):
            return encode(message)
        try:
            if tools is not self._tools:
                self._tools, self._tools_json = tools, encode_json(tools)
            rest = encode_json({key: value for key, value in result.items() if key != "tools"})
            head = b'{"jsonrpc":"2.0","id":' + encode_json(message.id) + b',"result":'
        except (TypeError, ValueError):  # not plain JSON data: the general path
            self._tools = None
            return encode(message)
        return (
            head
            + rest[:-1]
            + (b"," if len(rest) > 2 else b"")
            + b'"tools":'
            + (self._tools_json + b"}}\n")
        )


def encode(message: Any) -> bytes:
    """One JSON-RPC message as a line of UTF-8 JSON."""
    try:
        return jsonrpc_message_adapter.dump_json(message, by_alias=True, exclude_unset=True) + b"\n"
    except ValueError:
        pass
    # A lone surrogate (e.g. from a file name) cannot be UTF-8: JSON escapes it instead.
    try:
        data = jsonrpc_message_adapter.dump_python(
            message, mode="json", by_alias=True, exclude_unset=True
        )
        return json.dumps(data, ensure_ascii=True).encode() + b"\n"
    except ValueError as exc:
        request_id = getattr(message, "id", None)
        error = ErrorData(code=INTERNAL_ERROR, message=f"the answer could not be encoded: {exc}")
        failure = JSONRPCError(jsonrpc="2.0", id=request_id, error=error)
        return jsonrpc_message_adapter.dump_json(failure, by_alias=True) + b"\n"
