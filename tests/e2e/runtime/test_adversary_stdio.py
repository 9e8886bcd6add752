"""A hostile client and misbehaving handlers against a real stdio server process.

Each attack runs on both paths a call can take: the fast path (a plain `tools/call`) and the
SDK's (the same call with an empty `_meta`, which the fast path leaves to the SDK). They must
answer alike, and the server must end as asked: at end of input or on SIGTERM, with the
calls in flight answered and exit status 0. The server starts as a generated one does
(`entry.console.main`): loaded at once, or (`warming`) loading for a second while the session opens,
so that the attacks meet the hand-over to the SDK.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.runtime import SERVERS
from tests.support.runtime.hostile_tools import SECRET_ENV
from tests.support.runtime.stdio_session import INITIALIZE, INITIALIZED
from tests.support.sweep import full_run

SERVER = SERVERS / "adversary_server.py"
SECRET = "s3cret-Pa55word"
PATHS = ["fast", "sdk"]
WARM_UP = 1.0  # seconds a `warming` server takes to load


def call(request_id: Any, name: str, arguments: Any, path: str, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, "arguments": arguments, **extra}
    if path == "sdk":
        params["_meta"] = {}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def cancel(request_id: Any) -> dict[str, Any]:
    params = {"requestId": request_id}
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}


class Server:
    """The server process; every line it writes is collected by a thread."""

    def __init__(self, *args: str, warm_up: float = 0) -> None:
        # A file, not a pipe: a log nobody reads must never make the server wait.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env={**os.environ, SECRET_ENV: SECRET, "ADVERSARY_WARM_UP": str(warm_up)},
        )
        self.lines: list[dict[str, Any]] = []
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.send(INITIALIZE)
        self.answer(0)
        self.send(INITIALIZED)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._arrived:
                self.lines.append(json.loads(line))
                self._arrived.notify_all()

    def send(self, *messages: dict[str, Any] | bytes) -> None:
        assert self.process.stdin is not None
        data = b"".join(
            (m if isinstance(m, bytes) else json.dumps(m).encode()) + b"\n" for m in messages
        )
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answers(self, request_id: Any) -> list[dict[str, Any]]:
        with self._arrived:
            return [line for line in self.lines if line.get("id") == request_id]

    def answered(self, request_id: Any, count: int, timeout: float = 20) -> list[dict[str, Any]]:
        """The answers to `request_id`, once there are `count` of them."""
        with self._arrived:
            enough = self._arrived.wait_for(lambda: len(self.answers(request_id)) >= count, timeout)
            assert enough, (request_id, self.answers(request_id))
        return self.answers(request_id)

    def answer(self, request_id: Any, timeout: float = 20) -> dict[str, Any]:
        with self._arrived:
            assert self._arrived.wait_for(lambda: self.answers(request_id), timeout), request_id
        return self.answers(request_id)[0]

    def ended(self, timeout: float = 20) -> int:
        """The exit status (the test fails if the process outlives `timeout`)."""
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"the server was still running {timeout} s later")
        self._reader.join(timeout=5)
        return status

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.ended()
        self.log.close()

    def stderr(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


STATES = ["loaded", "warming"]


def _states_and_paths(test: str) -> list[tuple[str, str]]:
    """The (state, path) pairs a test that takes both runs on: every pair in a full run; in CI
    each state on one path, the pairing alternating from test to test, so that every attack
    meets both states and both paths, and the file every pair (`tests/support/sweep.py`)."""
    pairs = [(state, path) for state in STATES for path in PATHS]
    if full_run():
        return pairs
    return pairs[0::3] if zlib.crc32(test.encode()) % 2 else pairs[1:3]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test taking `server` runs on a loaded and a warming server; with `path` too, on the
    pairs `_states_and_paths` picks."""
    if "server" not in metafunc.fixturenames:
        return
    if "path" in metafunc.fixturenames:
        pairs = _states_and_paths(metafunc.function.__name__)
        ids = [f"{state}-{path}" for state, path in pairs]
        metafunc.parametrize(("server", "path"), pairs, indirect=["server"], ids=ids)
    else:
        metafunc.parametrize("server", STATES, indirect=True)


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """The server, `loaded` at once or `warming` (loading while the session opens)."""
    opened = Server(warm_up=WARM_UP if request.param == "warming" else 0)
    try:
        yield opened
    finally:
        opened.close()


def _text(answer: dict[str, Any]) -> str:
    return "\n".join(block.get("text", "") for block in answer["result"]["content"])


def test_sigterm_answers_the_calls_in_flight_and_exits_0(server: Server, path: str) -> None:
    server.send(*(call(i, "sleep_untimed", {"seconds": 1}, path) for i in range(1, 6)))
    time.sleep(0.3)  # all five are running
    server.process.send_signal(signal.SIGTERM)
    assert server.ended() == 0
    assert all(_text(server.answer(i, timeout=0)) == "slept" for i in range(1, 6))


def test_while_draining_the_session_still_lists_and_pings_but_starts_no_call(
    server: Server, path: str
) -> None:
    server.send(call(1, "sleep_untimed", {"seconds": 2}, path))
    time.sleep(0.3)
    server.process.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    server.send(
        {"jsonrpc": "2.0", "id": "list", "method": "tools/list"},
        {"jsonrpc": "2.0", "id": "ping", "method": "ping"},
        call("new", "odd", {"what": "int"}, path),
    )
    assert server.answer("list")["result"]["tools"]
    assert server.answer("ping")["result"] == {}
    refused = server.answer("new")["error"]
    assert refused["code"] == -32000 and "shutting down" in refused["message"]
    assert server.ended() == 0
    assert _text(server.answer(1, timeout=0)) == "slept"


def test_a_second_sigterm_ends_the_server_at_once(server: Server) -> None:
    server.send(call(1, "sleep_untimed", {"seconds": 30}, "fast"))
    time.sleep(0.3)
    server.process.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    assert server.process.poll() is None  # draining
    server.process.send_signal(signal.SIGTERM)
    assert server.ended(timeout=5) == -signal.SIGTERM


def test_a_sync_handler_past_its_timeout_does_not_hold_the_exit(server: Server, path: str) -> None:
    server.send(call(1, "sleep_sync", {"seconds": 60}, path))
    assert "timed out after 0.2 s" in _text(server.answer(1))
    assert server.process.stdin is not None
    server.process.stdin.close()
    assert server.ended(timeout=10) == 0


def test_stdin_closed_with_calls_in_flight_answers_them(server: Server, path: str) -> None:
    server.send(*(call(i, "sleep_untimed", {"seconds": 0.5}, path) for i in range(1, 4)))
    assert server.process.stdin is not None
    server.process.stdin.close()
    assert server.ended() == 0
    assert all(_text(server.answer(i, timeout=0)) == "slept" for i in range(1, 4))


def _same_run(answer: dict[str, Any]) -> str:
    """The answer without its id and the random error id."""
    line = json.dumps({key: value for key, value in answer.items() if key != "id"})
    return re.sub(r"error id [0-9a-f]{12}", "error id ID", line)


HOSTILE_CALLS = [
    ("raise_it", {"what": "system-exit"}),
    ("raise_it", {"what": "keyboard-interrupt"}),
    ("raise_it", {"what": "generator-exit"}),
    ("cancel_itself", {}),
    ("raise_sync_cancel", {}),
    ("exit_async", {}),
    ("raise_it", {"what": "leak"}),
    ("raise_it", {"what": "secret"}),
    ("odd", {"what": "nested-secret"}),
    ("odd", {"what": "key-secret"}),
    ("raise_it", {"what": "big"}),
    ("odd", {"what": "inf"}),
    ("odd", {"what": "generator"}),
    ("prints", {}),
    ("prints_async", {}),
    ("sleep_sync", {"seconds": 1}),
    ("sleep_async", {"seconds": 1}),
    ("raise_it", {"what": "surrogate"}),
    ("odd", ["not", "an", "object"]),
    ("odd", "text"),
]


def test_both_paths_answer_hostile_calls_alike_and_never_leak(server: Server) -> None:
    for number, (name, arguments) in enumerate(HOSTILE_CALLS):
        fast_id, sdk_id = f"fast-{number}", f"sdk-{number}"
        server.send(call(fast_id, name, arguments, "fast"), call(sdk_id, name, arguments, "sdk"))
        fast, sdk = server.answer(fast_id), server.answer(sdk_id)
        assert _same_run(fast) == _same_run(sdk), (name, arguments)
        assert SECRET not in json.dumps(fast), (name, arguments)
    # Whatever went to fd 1 went to stderr, not into the protocol: every line above parsed.
    server.send(call("last", "odd", {"what": "int"}, "fast"))
    assert _text(server.answer("last")) == "7"


def test_cancels_for_running_finished_and_unknown_ids(server: Server, path: str) -> None:
    server.send(
        call(1, "sleep_untimed", {"seconds": 1}, path), call(2, "odd", {"what": "int"}, path)
    )
    server.answer(2)
    server.send(cancel(1), cancel(2), cancel(99), cancel(None), cancel({"x": 1}))
    server.send(*(cancel(i) for i in range(1000, 1500)))  # a storm of cancels for nothing
    server.send(call(3, "odd", {"what": "int"}, path))
    assert _text(server.answer(3)) == "7"
    time.sleep(1.2)
    assert server.answers(1) == [] and len(server.answers(2)) == 1


def test_an_id_reused_while_running_gets_an_answer_each_time(server: Server, path: str) -> None:
    server.send(
        call(7, "sleep_untimed", {"seconds": 0.5}, path),
        call(7, "sleep_untimed", {"seconds": 0.1}, path),
    )
    assert [_text(answer) for answer in server.answered(7, 2)] == ["slept", "slept"]


def test_requests_with_extra_or_odd_params_are_answered(server: Server) -> None:
    server.send(
        {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": 1}},
        call(2, "odd", {"what": "int"}, "fast", extra=1),
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "odd"}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"cursor": None}},
    )
    assert server.answer(1)["result"] == {}
    assert _text(server.answer(2)) == "7"
    assert server.answer(3)["result"]["isError"] is True
    assert "tools" in server.answer(4)["result"]


def test_sigterm_in_a_huge_pipelined_burst_exits_0_promptly(server: Server, path: str) -> None:
    burst = [call(i, "sleep_untimed", {"seconds": 0.2}, path) for i in range(3000)]
    sender = threading.Thread(target=lambda: _send_ignoring_close(server, burst), daemon=True)
    sender.start()
    time.sleep(0.5)  # mid-burst: the reader is behind the writer
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    assert server.ended(timeout=20) == 0
    assert time.monotonic() - started < 15  # no wait for requests the server never saw
    answered = [line["id"] for line in server.lines if "id" in line and line["id"] != 0]
    assert len(answered) == len(set(answered))


def _send_ignoring_close(server: Server, messages: list[dict[str, Any]]) -> None:
    try:
        server.send(*messages)
    except (BrokenPipeError, ValueError):
        pass  # the server stopped reading


def test_lone_surrogate_escapes_are_answered_with_the_request_id(server: Server, path: str) -> None:
    meta = ',"_meta":{}' if path == "sdk" else ""
    server.send(
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"raise_it",'
        b'"arguments":{"what":"x\\udcff"}' + meta.encode() + b"}}",
        b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"raise_it\\ud800",'
        b'"arguments":{}' + meta.encode() + b"}}",
        b'{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"x":"\\uDC80"}}}',
        b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"odd",'
        b'"arguments":{"what":"\\udcff","n":NaN}}}',
    )
    assert server.answer(1)["result"]["isError"] is True
    assert server.answer(2)["error"]["message"] == "Unknown tool: raise_it\ud800"
    assert server.answer(3)["result"] == {}
    server.send(call(5, "odd", {"what": "int"}, path))
    assert _text(server.answer(5)) == "7"
    # NaN is no JSON, surrogates or not: refused as unreadable, with the id it shows.
    assert server.answer(4)["error"]["code"] == -32700


def test_an_id_reused_while_running_is_drained_at_end_of_input(server: Server, path: str) -> None:
    server.send(
        call(7, "sleep_untimed", {"seconds": 1}, path),
        call(7, "sleep_untimed", {"seconds": 0.1}, path),
    )
    assert server.process.stdin is not None
    server.process.stdin.close()
    assert server.ended() == 0
    assert [_text(answer) for answer in server.answers(7)] == ["slept", "slept"]


def test_both_paths_agree_after_a_second_initialize_with_another_version(server: Server) -> None:
    again = {**INITIALIZE, "id": "again"}
    again["params"] = {**INITIALIZE["params"], "protocolVersion": "2024-11-05"}  # type: ignore[dict-item]
    server.send(again)
    server.answer("again")
    server.send(call("fast", "structured", {}, "fast"), call("sdk", "structured", {}, "sdk"))
    assert _same_run(server.answer("fast")) == _same_run(server.answer("sdk"))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("ending", ["sigterm", "eof"])
def test_a_client_that_stops_reading_does_not_keep_the_server_alive(path: str, ending: str) -> None:
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--max-result-bytes", "0", "--max-result-chars", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, SECRET_ENV: SECRET, "ADVERSARY_DRAIN_SECONDS": "1"},
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
        process.stdin.flush()
        process.stdout.readline()
        big = [call(i, "raise_it", {"what": "big"}, path) for i in range(5)]  # 25 MB of answers
        process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in [INITIALIZED, *big]))
        process.stdin.flush()
        time.sleep(1)  # the answers fill the pipe nobody reads
        if ending == "sigterm":
            process.send_signal(signal.SIGTERM)
        else:
            process.stdin.close()
        assert process.wait(timeout=20) == 0
    finally:
        process.kill()
        process.wait()
        process.stdout.close()


def _rss_kib(pid: int) -> int:
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_line_that_never_ends_is_dropped_as_it_comes_not_held() -> None:
    opened = Server("--max-body-bytes", "65536")
    try:
        opened.send(call(11, "odd", {"what": "int", "pad": "x" * 1000}, "fast"))
        assert opened.answer(11)["result"]["content"][0]["text"] == "7"
        before = _rss_kib(opened.process.pid)
        assert opened.process.stdin is not None
        block = b"7" * (1 << 20)
        for _ in range(200):  # 200 MiB, and no newline
            opened.process.stdin.write(block)
        opened.process.stdin.flush()
        grown = _rss_kib(opened.process.pid) - before
        opened.send(b"", call(12, "odd", {"what": "float"}, "fast"))
        assert opened.answer(12)["result"]["content"][0]["text"] == "1.5"
        refused = opened.answers(None)
        assert [line["error"]["code"] for line in refused] == [-32600]
        assert "longer than 65536 bytes" in refused[0]["error"]["message"]
        assert grown < 32 * 1024, f"the server grew by {grown} KiB"
    finally:
        opened.close()


@pytest.mark.parametrize("path", PATHS)
def test_a_long_line_among_short_ones_is_refused_alone(path: str) -> None:
    opened = Server("--max-body-bytes", "4096")
    try:
        big = json.dumps(call(11, "odd", {"what": "int", "pad": "y" * 5000}, path)).encode()
        opened.send(
            call(10, "odd", {"what": "int"}, path), big, call(12, "odd", {"what": "float"}, path)
        )
        assert opened.answer(10)["result"]["content"][0]["text"] == "7"
        assert opened.answer(12)["result"]["content"][0]["text"] == "1.5"
        assert [line["error"]["code"] for line in opened.answers(11)] == [-32600]
        assert opened.answers(None) == []
    finally:
        opened.close()


def _padded(request_id: Any, size: int, *, id_at: str) -> bytes:
    """A `size`-byte call line whose id comes first, last, or between two halves of it."""
    pad = "p" * (size // 2)
    params = {"name": "odd", "arguments": {"what": "int", "a": pad, "b": pad}}
    ordered = {
        "start": {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params},
        "end": {"jsonrpc": "2.0", "method": "tools/call", "params": params, "id": request_id},
        "middle": {"a": pad, "id": request_id, "b": pad, "jsonrpc": "2.0", "method": "ping"},
        "nested": {"jsonrpc": "2.0", "method": "tools/call", "params": {**params, "id": 5}},
    }[id_at]
    return json.dumps(ordered, separators=(",", ":")).encode()


@pytest.mark.parametrize("warm_up", [0, WARM_UP], ids=["loaded", "warming"])
def test_a_line_over_the_limit_is_answered_with_its_own_id(warm_up: float) -> None:
    opened = Server("--max-body-bytes", "65536", warm_up=warm_up)
    try:
        opened.send(
            _padded(1, 100_000, id_at="start"),
            _padded("two", 10 << 20, id_at="end"),
            _padded(3, 200_000, id_at="middle"),  # beyond either edge: no telling
            _padded(4, 200_000, id_at="nested"),  # the id of `params`, not the request's
            _padded(5, 200_000, id_at="end") + b"\r",  # CRLF
            call(6, "odd", {"what": "int"}, "fast"),
        )
        assert _text(opened.answer(6)) == "7"
        for request_id in (1, "two", 5):
            refused = opened.answer(request_id)["error"]
            assert refused["code"] == -32600 and "longer than 65536 bytes" in refused["message"]
        assert [line["error"]["code"] for line in opened.answers(None)] == [-32600, -32600]
        assert opened.answers(3) == opened.answers(4) == []
    finally:
        opened.close()


def test_many_lines_over_the_limit_each_get_an_answer_and_the_session_goes_on() -> None:
    opened = Server("--max-body-bytes", "4096")
    try:
        sender = threading.Thread(
            target=lambda: opened.send(*(_padded(i, 8192, id_at="start") for i in range(1, 2001))),
            daemon=True,
        )
        sender.start()
        sender.join(timeout=60)
        opened.send(call("after", "odd", {"what": "int"}, "fast"))
        assert _text(opened.answer("after")) == "7"
        assert all(opened.answer(i, timeout=0)["error"]["code"] == -32600 for i in range(1, 2001))
    finally:
        opened.close()


def test_an_unended_last_line_over_the_limit_is_answered_at_end_of_input() -> None:
    opened = Server("--max-body-bytes", "4096")
    opened.send(call(1, "odd", {"what": "int"}, "fast"))
    opened.answer(1)
    assert opened.process.stdin is not None
    opened.process.stdin.write(_padded(9, 50_000, id_at="end"))  # no newline, then EOF
    opened.process.stdin.close()
    assert opened.ended() == 0
    assert opened.answer(9, timeout=0)["error"]["code"] == -32600
    opened.log.close()


def test_a_server_that_cannot_load_says_so_and_exits_1() -> None:
    done = subprocess.run(
        [sys.executable, str(SERVER)],
        input=(json.dumps(INITIALIZE) + "\n").encode(),
        capture_output=True,
        env={**os.environ, "ADVERSARY_LOAD_FAILS": "1", "ADVERSARY_WARM_UP": "0.5"},
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert b"cannot serve: loading the server failed" in done.stderr
    assert b"No module named 'mcp.server'" in done.stderr
    # The handshake was answered while it loaded; nothing else reached stdout.
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == [0]


def test_requests_that_need_the_sdk_wait_for_it_and_the_session_goes_on() -> None:
    opened = Server(warm_up=WARM_UP)
    try:
        started = time.monotonic()
        opened.send({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})
        assert opened.answer("list")["result"]["tools"]
        listed = time.monotonic() - started
        opened.send(call(1, "odd", {"what": "int"}, "fast"), call(2, "odd", {"what": "int"}, "sdk"))
        assert _text(opened.answer(1)) == _text(opened.answer(2)) == "7"
        assert listed < WARM_UP  # answered before the server was loaded
    finally:
        opened.close()


def test_unreadable_requests_are_answered_with_the_id_they_show(server: Server) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    server.send(
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"odd","arguments":'
        + deep
        + b"}}",  # too deep for the parser
        b'{"jsonrpc":"2.0","id":2,"method":"ping"}\x00',  # not JSON after the object
        b'{"jsonrpc":"1.0","id":3,"method":"ping"}',  # not JSON-RPC 2.0
        b'{"jsonrpc":"2.0","id":4,"method":"ping"}\r',  # CRLF: whitespace, answered as usual
        b'{"jsonrpc":"2.0","result":{},"id":5,"x":',  # an answer (no method): its id is not ours
        b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}',  # ids the SDK takes for notifications
        b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
        b"[" * 100_000,
    )
    assert server.answer(1)["error"]["code"] == -32700
    assert server.answer(2)["error"]["code"] == -32700
    assert server.answer(3)["error"]["code"] == -32600
    assert server.answer(4)["result"] == {}
    assert server.process.stdin is not None
    server.process.stdin.write(b'{"jsonrpc":"2.0","id":"last","method":"ping"')  # EOF, unended
    server.process.stdin.close()
    assert server.ended() == 0
    assert server.answer("last", timeout=0)["error"]["code"] == -32700
    nulls = server.answers(None)
    assert len(nulls) == 5, nulls  # the answer, the three odd ids, the deep array
    assert sum("string or an integer" in line["error"]["message"] for line in nulls) == 3
    assert server.answers(5) == []
