"""The regex child process under attack: killed from outside, flooded, and its server
stopped by SIGTERM in the middle of a runaway match."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from mcpgen.runtime.validation.bounded_regex import PATIENCE, VERDICT_BUDGET
from tests.e2e.runtime.test_pattern_stall import (
    INITIALIZE,
    INITIALIZED,
    StdioServer,
    _alive,
    _call,
    _children,
)
from tests.support.runtime.redos_tools import RUNAWAY
from tests.support.sweep import rounds

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")


@pytest.fixture
def server() -> StdioServer:
    started = StdioServer()
    started.send(INITIALIZE)
    started.reply(0)
    started.send(INITIALIZED)
    return started


def _text(server: StdioServer, request_id: int, timeout: float = 20) -> str:
    _, answer = server.reply(request_id, timeout)
    return str(answer["result"]["content"][0]["text"])


def test_a_child_killed_from_outside_is_replaced_for_the_next_verdict(
    server: StdioServer,
) -> None:
    try:
        server.send(_call(1, "nested_backreference", {"text": "aa"}))
        assert _text(server, 1) == "2"
        (child,) = _children(server.process.pid)
        os.kill(child, signal.SIGKILL)
        while _alive(child):
            time.sleep(0.01)
        server.send(_call(2, "nested_backreference", {"text": "aaaa"}))
        assert _text(server, 2) == "4"
    finally:
        server.close()


@pytest.mark.parametrize("runaways", [1, 20])
def test_sigterm_during_runaway_matches_exits_0_in_time_leaving_no_child(
    server: StdioServer, runaways: int
) -> None:
    server.send(
        *(_call(10 + i, "nested_backreference", {"text": RUNAWAY}) for i in range(runaways))
    )
    time.sleep(0.5)  # deep in a match that would take hours
    children = _children(server.process.pid)
    assert children
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    # A call stops waiting for its turn (budget + PATIENCE budgets after it arrived), and may
    # then still be matching for one budget: every call is answered by then.
    longest = VERDICT_BUDGET * (2 + PATIENCE)
    assert server.process.wait(timeout=longest + 10) == 0
    assert time.monotonic() - started < longest + 3
    for i in range(runaways):
        assert "took too long" in _text(server, 10 + i, timeout=1)
    assert not any(_alive(child) for child in children)
    server.close()


@pytest.mark.parametrize(
    "attacked", [["nested_backreference"], ["nested_backreference", "nested_backreference_too"]]
)
def test_a_flood_of_runaway_matches_on_one_tool_refuses_no_call_of_another(
    server: StdioServer, attacked: list[str]
) -> None:
    """An attacker keeps one tool's back-reference busy (or two tools'); another tool's
    back-reference calls, benign, are all answered, none refused for lack of time (10 calls in
    CI, 40 in a full run)."""
    try:
        attack = iter(range(1000, 3000))
        server.send(
            *(_call(next(attack), tool, {"text": RUNAWAY}) for _ in range(30) for tool in attacked)
        )
        refused = []
        for victim in range(rounds(10, 40)):
            # The attacker keeps the flood going while the victim calls.
            server.send(*(_call(next(attack), tool, {"text": RUNAWAY}) for tool in attacked))
            server.send(_call(victim + 1, "same_ends", {"text": "abca"}))
            _, answer = server.reply(victim + 1, timeout=60)
            if answer["result"]["isError"]:
                refused.append(answer["result"]["content"][0]["text"])
        assert refused == []
    finally:
        server.process.kill()
        server.process.wait()
