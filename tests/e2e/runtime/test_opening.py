"""The opening (`stdio.opening`) answers only what it may, and hands the session over to the
SDK as if the SDK had served it from the start.

That its answers are byte for byte the SDK's, at every protocol version and for every kind of
server, is judged against the SDK's own `stdio_server` in tests/differential
(`test_fast_paths_vs_sdk`); here the hand-over is checked against an uninterrupted session of
the runtime's transport over pipes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import build_server
from mcpgen.runtime.stdio.fast_path import FastPath
from mcpgen.runtime.stdio.opening import Handover, Opening
from mcpgen.runtime.stdio.transport import serve_fds
from tests.support.runtime.stdio_tools import SERVER_TOOLS, call

INFO = ServerInfo(
    name="tiny ✓",
    version="0.1.0",
    script="tiny-server",
    description="Tiny.",
    instructions='Use "echo" ✓, or\n\ttags \x01 é 𝄞 \u2028 \x7f \\ /',
)


def _initialize(version: Any, capabilities: Any, request_id: Any = "init") -> dict[str, Any]:
    params = {
        "protocolVersion": version,
        "capabilities": capabilities,
        "clientInfo": {"name": "raw", "version": "0"},
    }
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _request(request_id: Any, method: str, **params: Any) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    return {**message, "params": params} if params else message


def _line(message: Any) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode()


def _sdk_session(
    info: ServerInfo, lines: list[bytes], opening: Handover | None = None
) -> tuple[list[bytes], Dispatcher]:
    """The answer lines of the SDK's session (with the fast path) to `lines`, then EOF."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    answers: list[bytes] = []

    def read() -> None:
        buffer = b""
        while chunk := os.read(out_read, 65536):
            buffer += chunk
        answers.extend(buffer.splitlines())

    def write() -> None:
        with os.fdopen(in_write, "wb") as pipe:
            pipe.write(b"".join(line + b"\n" for line in lines))

    dispatcher = Dispatcher(SERVER_TOOLS)
    server = build_server(info, dispatcher)
    threads = [threading.Thread(target=read), threading.Thread(target=write)]
    for thread in threads:
        thread.start()
    anyio.run(
        lambda: serve_fds(server, in_read, out_write, FastPath(dispatcher, server), opening=opening)
    )
    os.close(out_write)
    for thread in threads:
        thread.join(timeout=30)
    os.close(in_read)
    os.close(out_read)
    return answers, dispatcher


def _opening(info: ServerInfo) -> Opening:
    return Opening(info, SERVER_TOOLS, 1 << 20)


INIT = _initialize("2025-11-25", {})
UNUSUAL_INITIALIZE: list[Any] = [
    _initialize("2025-11-25", {"roots": 5}),
    _initialize("2025-11-25", {"roots": {"listChanged": "yes"}}),
    _initialize("2025-11-25", {"sampling": {"context": {"x": 1}}}),
    _initialize("2025-11-25", {"tasks": {}}),
    _initialize("2025-11-25", {"extensions": {}}),
    _initialize("2025-11-25", []),
    _initialize(20251125, {}),
    {**INIT, "params": {**INIT["params"], "clientInfo": {"name": "raw"}}},
    {**INIT, "params": {**INIT["params"], "clientInfo": {"name": "r", "version": 1}}},
    {**INIT, "params": {**INIT["params"], "_meta": {}}},
    {**INIT, "params": {**INIT["params"], "extra": 1}},
    {**INIT, "extra": 1},
    {**INIT, "id": 1.0},
    {**INIT, "id": True},
    {**INIT, "id": None},
    {**INIT, "id": 2**60},
    {**INIT, "jsonrpc": "1.0"},
    [INIT],
]


@pytest.mark.parametrize("message", UNUSUAL_INITIALIZE)
def test_an_unusual_initialize_is_left_to_the_sdk(message: Any) -> None:
    assert _opening(INFO)._answer(_line(message)) is None


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":1,"id":2,"method":"initialize","params":{}}',
        b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        b"not json",
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion"',
        b"[" * 100_000,
    ],
)
def test_a_line_the_sdk_reads_differently_is_left_to_it(line: bytes) -> None:
    assert _opening(INFO)._answer(line) is None


def test_only_the_handshake_ping_and_tools_list_are_answered_in_their_order() -> None:
    opening = _opening(INFO)
    assert opening._answer(_line(_request(1, "tools/list"))) is None  # before initialize
    assert opening._answer(_line(_request(1, "ping"))) is None
    assert opening._answer(_line(INIT))
    assert opening._answer(_line(_request(2, "tools/list"))) is None  # before initialized
    assert opening._answer(_line(INIT)) is None  # a second initialize
    assert opening._answer(_line({**INITIALIZED, "params": {"x": 1}})) is None
    assert opening._answer(_line(INITIALIZED)) == b""
    assert opening._answer(b"  ") == b""
    assert opening._answer(_line(_request(3, "tools/list")))
    assert opening._answer(_line(_request(4, "tools/list", cursor="x"))) is None
    assert opening._answer(_line({**_request(5, "ping"), "params": None})) is None
    assert opening._answer(_line(call(6, "echo", {"text": "Hi"}))) is None
    assert opening._answer(_line(_request(7, "logging/setLevel", level="debug"))) is None
    assert opening._answer(_line(INITIALIZED)) is None  # twice


# --- the hand-over ------------------------------------------------------------------------


class _WarmUp:
    """Stands for `entry.warm_up.WarmUp`: done when the test says so."""

    def __init__(self) -> None:
        self.fd, self._wake = os.pipe()
        self._done = threading.Event()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def finish(self) -> None:
        self._done.set()
        os.write(self._wake, b"!")

    def close(self) -> None:
        os.close(self.fd)
        os.close(self._wake)


@pytest.fixture(autouse=True)
def sigterm() -> Iterator[None]:
    """The opening installs its SIGTERM handler, which the process keeps; a test does not."""
    previous = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, previous)


class _Client:
    """An opening on pipes, and a client that writes chunks, each once the answers to the
    ones before it are in."""

    def __init__(self, max_line: int = 1 << 20) -> None:
        self.in_read, self.in_write = os.pipe()
        self.out_read, self.out_write = os.pipe()
        self.warm_up = _WarmUp()
        self.answers: list[bytes] = []
        self.opening = Opening(INFO, SERVER_TOOLS, max_line)

    def run(self, chunks: list[tuple[bytes, int]], then: str = "end") -> Handover | None:
        """`chunks`: (bytes, answers expected); `then`: "end" the input, "finish" the
        warm-up, or "wait" for the opening to give up on its own."""

        def client() -> None:
            buffer = b""
            for chunk, expected in chunks:
                os.write(self.in_write, chunk)
                while buffer.count(b"\n") < expected:
                    buffer += os.read(self.out_read, 65536)
                self.answers.extend(buffer.splitlines())
                buffer = b""
            if then == "end":
                os.close(self.in_write)
                self.in_write = -1
            elif then == "finish":
                self.warm_up.finish()

        thread = threading.Thread(target=client)
        thread.start()
        try:
            rest = self.opening.serve(self.in_read, self.out_write, self.warm_up)
        finally:
            self.opening.close()
        thread.join(timeout=30)
        return rest

    def handed_over(self, rest: Handover, more: bytes = b"") -> list[bytes]:
        """The SDK's answers, given the opening's `rest` and then `more` on the input."""
        if self.in_write >= 0:
            os.write(self.in_write, more)
            os.close(self.in_write)
        answers: list[bytes] = []

        def read() -> None:
            buffer = b""
            while chunk := os.read(self.out_read, 65536):
                buffer += chunk
            answers.extend(buffer.splitlines())

        reader = threading.Thread(target=read)
        reader.start()
        dispatcher = Dispatcher(SERVER_TOOLS)
        server = build_server(INFO, dispatcher)
        fast = FastPath(dispatcher, server)
        anyio.run(lambda: serve_fds(server, self.in_read, self.out_write, fast, opening=rest))
        os.close(self.out_write)
        reader.join(timeout=30)
        return answers

    def close(self) -> None:
        for fd in (self.in_read, self.out_read, self.in_write, self.out_write):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.warm_up.close()


@pytest.fixture
def client() -> Iterator[_Client]:
    made = _Client()
    yield made
    made.close()


def _lines(*messages: Any) -> bytes:
    return b"".join(_line(m) + b"\n" for m in messages)


def _by_id(lines: list[bytes]) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for line in lines:
        key = repr(json.loads(line).get("id"))
        assert key not in found, f"{key} answered twice"
        found[key] = line
    return found


def _sdk_answers(lines: bytes) -> dict[str, bytes]:
    return _by_id(_sdk_session(INFO, lines.splitlines())[0])


HANDSHAKE = _lines(INIT, INITIALIZED)
LIST = _lines(_request("list", "tools/list"))
CALLS = _lines(call(101, "echo", {"text": "Hi"}), _request("p", "ping"))


def test_a_request_the_sdk_must_answer_hands_the_session_over_in_order(
    client: _Client, caplog: pytest.LogCaptureFixture
) -> None:
    rest = client.run([(HANDSHAKE, 1), (LIST + CALLS, 1)])
    assert rest is not None
    assert not rest.ended  # the input ended later: the SDK's session reads that
    assert rest.unread == CALLS
    assert rest.replay == [_line(INIT), _line(INITIALIZED)]
    with caplog.at_level(logging.WARNING):
        later = client.handed_over(rest)
    assert "differs" not in caplog.text
    assert _by_id(client.answers + later) == _sdk_answers(HANDSHAKE + LIST + CALLS)


def test_the_end_of_the_warm_up_hands_an_idle_session_over(client: _Client) -> None:
    rest = client.run([(HANDSHAKE, 1), (LIST, 1)], then="finish")
    assert rest is not None
    assert not rest.ended
    assert rest.unread == b""
    # An id used before is allowed once answered: the SDK's tools/list is the same bytes.
    later = _by_id(client.handed_over(rest, CALLS + LIST))
    before = _by_id(client.answers)
    assert later["'list'"] == before["'list'"]
    assert before | later == _sdk_answers(HANDSHAKE + LIST + CALLS)


def test_a_warm_up_that_ends_first_leaves_everything_to_the_sdk(client: _Client) -> None:
    rest = client.run([], then="finish")
    assert rest is not None
    assert (rest.replay, rest.unread, client.answers) == ([], b"", [])
    later = client.handed_over(rest, HANDSHAKE + LIST + CALLS)
    assert _by_id(later) == _sdk_answers(HANDSHAKE + LIST + CALLS)


def test_input_that_ends_with_everything_answered_needs_no_sdk(client: _Client) -> None:
    rest = client.run([(HANDSHAKE, 1), (LIST + b"\n  \n", 1)])
    assert rest is None
    assert _by_id(client.answers) == _sdk_answers(HANDSHAKE + LIST)


def test_an_unended_last_line_goes_to_the_sdk(client: _Client) -> None:
    last = _line(_request("last", "ping"))
    rest = client.run([(HANDSHAKE, 1), (last, 0)])
    assert rest is not None
    assert rest.ended
    assert rest.unread == last
    later = client.handed_over(rest)
    assert _by_id(client.answers + later) == _sdk_answers(HANDSHAKE + last)


def test_a_line_longer_than_the_limit_goes_to_the_sdk_unread() -> None:
    client = _Client(max_line=40)
    try:
        line = _lines(_request("long", "ping", padding="x" * 40))
        rest = client.run([(line[:30], 0), (line[30:60], 0)], then="wait")
        assert rest is not None
        assert not rest.ended
        assert rest.unread == line[:60]
    finally:
        client.close()


def test_sigterm_ends_the_opening_as_it_ends_a_session(client: _Client) -> None:
    def terminate() -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    chunks = [(HANDSHAKE, 1)]
    timer = threading.Timer(0.3, terminate)
    timer.start()
    rest = client.run(chunks, then="wait")
    timer.join()
    assert rest is None
    assert len(client.answers) == 1


def test_another_signal_neither_ends_the_opening_nor_makes_it_spin(client: _Client) -> None:
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: None)
    timers = [
        threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGUSR1)),
        threading.Timer(0.6, client.warm_up.finish),
    ]
    try:
        for timer in timers:
            timer.start()
        started = time.process_time()
        rest = client.run([(HANDSHAKE, 1)], then="wait")
        assert time.process_time() - started < 0.1  # every thread's: a spinning loop takes 0.3 s
        assert rest is not None
        assert rest.replay == [_line(INIT), _line(INITIALIZED)]
    finally:
        for timer in timers:
            timer.join()
        signal.signal(signal.SIGUSR1, previous)
