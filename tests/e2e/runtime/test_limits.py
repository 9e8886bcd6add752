"""Bounded work over real stdio: timeouts, a worker pool that a timeout does not free."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from mcpgen.runtime.core.limits import PoolSaturated, WorkerPool
from tests.support.runtime import SERVERS
from tests.support.runtime.wire import StdioSession, stdio_session, text

SERVER = SERVERS / "hostile_server.py"
WORKERS = 64


def threads_of(session: StdioSession) -> int:
    status = Path(f"/proc/{session.process.pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("Threads:")).split()[1])


def call_many(session: StdioSession, name: str, arguments: dict[str, Any], count: int) -> list[str]:
    """Send `count` calls at once, then read every answer: their texts, in any order."""
    first = 10_000 + count * 1000 + int(time.monotonic() * 1000) % 1000 * count
    for n in range(count):
        params = {"name": name, "arguments": arguments}
        session.send({"jsonrpc": "2.0", "id": first + n, "method": "tools/call", "params": params})
    answers = [session.read() for _ in range(count)]
    assert sorted(a["id"] for a in answers) == list(range(first, first + count))
    return [text(a["result"]) for a in answers]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_300_timed_out_sync_calls_leave_the_thread_count_bounded() -> None:
    with stdio_session(SERVER, ["--workers", str(WORKERS)]) as session:
        baseline = threads_of(session)
        timed_out = 0
        for _ in range(5):
            texts = call_many(session, "sleep_sync", {"seconds": 0.5}, 60)
            timed_out += sum("timed out after 0.2 s" in t for t in texts)
            assert threads_of(session) <= baseline + WORKERS
            time.sleep(0.45)  # the abandoned work ends; its threads come back
        assert timed_out == 300
        assert threads_of(session) <= baseline + WORKERS
        assert session.call("sleep_sync", {"seconds": 0})["isError"] is False


def test_a_saturated_pool_refuses_with_a_clear_error() -> None:
    with stdio_session(SERVER, ["--workers", "2"]) as session:
        texts = call_many(session, "sleep_sync", {"seconds": 1}, 5)
        busy = [t for t in texts if "the server is busy: all 2 worker threads" in t]
        assert len(busy) == 3 and sum("timed out" in t for t in texts) == 2
        # Async handlers do not need a thread: they are served meanwhile.
        assert session.call("sleep_async", {"seconds": 0})["isError"] is False


def test_every_tool_has_a_timeout_by_default() -> None:
    with stdio_session(SERVER, ["--timeout", "0.3"]) as session:
        result = session.call("sleep_untimed", {"seconds": 5})
        assert result["isError"] is True and "timed out after 0.3 s" in text(result)
        # A tool's own `timeout` wins over the server-wide default.
        result = session.call("sleep_async", {"seconds": 5})
        assert result["isError"] is True and "timed out after 0.2 s" in text(result)


@pytest.mark.anyio
async def test_pool_counts_a_thread_busy_until_its_work_ends() -> None:
    import anyio

    pool = WorkerPool(1)
    with anyio.move_on_after(0.05):
        await pool.run(time.sleep, 0.3)
    assert pool.busy == 1 and pool.overrun == 1
    with pytest.raises(PoolSaturated, match="1 of them past their timeout"):
        await pool.run(time.sleep, 0)
    await anyio.sleep(0.4)
    assert pool.busy == 0 and pool.overrun == 0
    assert await pool.run(len, "abc") == 3
