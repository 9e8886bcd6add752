"""A handler that tries to end, stop or take over a real server process: its call ends in an
error result (or, forked, only the server answers), and the server keeps serving and still
exits 0 on SIGTERM. Sync handlers run on a worker thread, async ones on the event loop's."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.runtime.test_adversary_stdio import Server, call

TOOLS = ["breaks_sync", "breaks_async"]


@pytest.fixture
def server() -> Iterator[Server]:
    opened = Server()
    try:
        yield opened
    finally:
        if opened.process.poll() is None:
            opened.process.kill()
        opened.close()


def _answered(server: Server, request_id: int) -> dict[str, object]:
    result: dict[str, object] = server.answer(request_id)["result"]
    return result


def _serves_and_stops_on_sigterm(server: Server) -> None:
    server.send(call(99, "raise_it", {"what": "datetime"}, "fast"))
    assert _answered(server, 99)["isError"] is False
    server.process.send_signal(signal.SIGTERM)
    assert server.ended() == 0


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("what", ["os-exit", "sigkill-self", "loop-stop", "sigterm-ignored"])
def test_a_handler_cannot_end_stop_or_deafen_the_server(
    server: Server, tool: str, what: str
) -> None:
    server.send(call(1, tool, {"what": what}, "fast"))
    assert _answered(server, 1)["isError"] is True
    _serves_and_stops_on_sigterm(server)


@pytest.mark.parametrize("tool", TOOLS)
def test_a_forked_child_returning_into_the_runtime_never_answers(server: Server, tool: str) -> None:
    server.send(call(1, tool, {"what": "fork"}, "fast"))
    assert _answered(server, 1)["content"] == [{"type": "text", "text": "parent"}]
    time.sleep(0.5)  # a child that went on serving would have answered by now
    server.send(call(2, "raise_it", {"what": "datetime"}, "fast"))
    _answered(server, 2)
    assert [line.get("id") for line in server.lines] == [0, 1, 2]
    if Path("/proc/self/task").exists():
        assert not _children_besides_regex(server.process.pid)
    _serves_and_stops_on_sigterm(server)


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("what", ["close-stdio", "stdout-none"])
def test_a_handler_closing_or_dropping_stdio_leaves_the_protocol_channel(
    server: Server, tool: str, what: str
) -> None:
    server.send(call(1, tool, {"what": what}, "fast"))
    assert _answered(server, 1)["isError"] is False
    _serves_and_stops_on_sigterm(server)


def _children_besides_regex(pid: int) -> list[int]:
    """Live child processes of `pid` other than regex workers (none run here anyway)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            state = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            if state != "Z" and b"regex_worker" not in command:  # the handler never reaps
                found.append(int(child))
    return found
