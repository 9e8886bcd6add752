"""A backtracking-prone pattern cannot stall a real server: over stdio and HTTP, a call whose
argument would keep regress busy for minutes leaves a concurrent call answered at once.

`^(a+)+$` runs on RE2 and is refused in microseconds; `^(a+)+\\1$` (a back-reference, so
regress only) runs in the regex child process and is refused when the verdict's time is up.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mcpgen.runtime.validation.bounded_regex import VERDICT_BUDGET
from tests.support.runtime import SERVERS, http_wire
from tests.support.runtime.redos_tools import RUNAWAY
from tests.support.runtime.stdio_session import INITIALIZE, INITIALIZED

SERVER = SERVERS / "redos_server.py"
# How long the concurrent call may take. Generous (two cores shared by every test run), and
# still far below what a stalled server shows: the runaway match alone takes minutes in
# regress, and the fallback holds its call for the whole VERDICT_BUDGET.
PROMPT = VERDICT_BUDGET / 2


def _call(request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


class StdioServer:
    """The server on a real stdio pipe; replies collected with the time each arrived."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.replies: dict[int, tuple[float, dict[str, Any]]] = {}
        self._arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            message = json.loads(line)
            with self._arrived:
                self.replies[message.get("id", -1)] = (time.monotonic(), message)
                self._arrived.notify_all()

    def send(self, *messages: dict[str, Any]) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        self.process.stdin.flush()
        return time.monotonic()

    def reply(self, request_id: int, timeout: float = 20) -> tuple[float, dict[str, Any]]:
        with self._arrived:
            assert self._arrived.wait_for(lambda: request_id in self.replies, timeout)
            return self.replies[request_id]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=20)
        finally:
            self.process.kill()


@pytest.fixture
def stdio_server() -> Any:
    server = StdioServer()
    server.send(INITIALIZE)
    server.reply(0)
    server.send(INITIALIZED)
    # Warm both tools (first calls compile the validators, start the regex child).
    server.send(
        _call(1, "nested", {"text": "aa"}), _call(2, "nested_backreference", {"text": "aa"})
    )
    assert not server.reply(1)[1]["result"]["isError"]
    assert not server.reply(2)[1]["result"]["isError"]
    yield server
    server.close()


def test_stdio_nested_repetition_is_refused_at_once(stdio_server: StdioServer) -> None:
    sent = stdio_server.send(_call(10, "nested", {"text": RUNAWAY}), _call(11, "ping", {}))
    refused_at, refused = stdio_server.reply(10)
    answered_at, answered = stdio_server.reply(11)
    assert refused["result"]["isError"]
    assert "does not match" in refused["result"]["content"][0]["text"]
    assert answered["result"]["content"][0]["text"] == "pong"
    assert refused_at - sent < PROMPT
    assert answered_at - sent < PROMPT


def test_stdio_backtracking_fallback_fails_closed_without_stalling(
    stdio_server: StdioServer,
) -> None:
    sent = stdio_server.send(
        _call(20, "nested_backreference", {"text": RUNAWAY}), _call(21, "ping", {})
    )
    answered_at, answered = stdio_server.reply(21)
    refused_at, refused = stdio_server.reply(20)
    assert answered["result"]["content"][0]["text"] == "pong"
    assert answered_at - sent < PROMPT
    assert refused["result"]["isError"]
    assert "pattern evaluation took too long" in refused["result"]["content"][0]["text"]
    assert VERDICT_BUDGET - 0.1 < refused_at - sent < VERDICT_BUDGET + 2
    # The child process was replaced: the next backtracking match works.
    stdio_server.send(_call(22, "nested_backreference", {"text": "aaaa"}))
    assert not stdio_server.reply(22)[1]["result"]["isError"]


@pytest.fixture
def http_server() -> Any:
    port = http_wire.free_port()
    command = [sys.executable, str(SERVER), "--transport", "http", "--port", str(port)]
    process = subprocess.Popen([*command, "--stateless"], stderr=subprocess.DEVNULL)
    server = http_wire.HttpServer(process, port)  # type: ignore[arg-type]
    try:
        deadline = time.monotonic() + 20
        while not _healthy(server):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        server.call("nested_backreference", {"text": "aa"})  # compile, start the regex child
        yield server
    finally:
        server.stop()


def _healthy(server: http_wire.HttpServer) -> bool:
    try:
        return server.request("GET", "/healthz", timeout=2).status == 200
    except OSError:
        return False


def test_http_backtracking_fallback_does_not_stall_other_clients(
    http_server: http_wire.HttpServer,
) -> None:
    slow: dict[str, Any] = {}

    def runaway() -> None:
        slow["result"] = http_server.call("nested_backreference", {"text": RUNAWAY})

    worker = threading.Thread(target=runaway)
    worker.start()
    time.sleep(0.2)  # the runaway verdict is under way
    started = time.monotonic()
    assert http_server.call("ping", {})["content"][0]["text"] == "pong"
    elapsed = time.monotonic() - started
    worker.join(timeout=20)
    assert elapsed < PROMPT
    assert slow["result"]["isError"]
    assert "took too long" in slow["result"]["content"][0]["text"]


def test_stdio_a_flood_of_runaway_calls_leaves_other_calls_answered(
    stdio_server: StdioServer,
) -> None:
    flood = [_call(100 + i, "nested_backreference", {"text": RUNAWAY}) for i in range(50)]
    stdio_server.send(*flood)
    for ping_id in (98, 99):  # each read of stdin after the flood, too
        time.sleep(0.3)  # the runaway calls are waiting for their verdicts
        sent = stdio_server.send(_call(ping_id, "ping", {}))
        answered_at, answered = stdio_server.reply(ping_id)
        assert answered["result"]["content"][0]["text"] == "pong"
        assert answered_at - sent < PROMPT
    _, last = stdio_server.reply(149, timeout=VERDICT_BUDGET * 60)
    assert last["result"]["isError"]


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.update(int(child) for child in (task / "children").read_text().split())
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_a_killed_server_leaves_no_runaway_match_behind(stdio_server: StdioServer) -> None:
    (regex_child,) = _children(stdio_server.process.pid)
    stdio_server.send(_call(30, "nested_backreference", {"text": RUNAWAY * 3}))
    time.sleep(0.5)  # the child is deep in a match that would take hours
    assert _alive(regex_child)
    stdio_server.process.kill()  # SIGKILL: the server cannot clean up
    stdio_server.process.wait()
    deadline = time.monotonic() + VERDICT_BUDGET * 2 + 10
    while _alive(regex_child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(regex_child)
