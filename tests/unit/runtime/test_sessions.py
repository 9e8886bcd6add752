"""The per-client session count, kept from what goes over the wire (no SDK internals)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcpgen.runtime.http.gate import Gate, GateLimits, Message
from mcpgen.runtime.http.sessions import SessionBook

RUNTIME = Path(__file__).resolve().parents[3] / "mcpgen" / "runtime"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_sessions_count_per_client_until_deleted_or_idle() -> None:
    clock = Clock()
    book = SessionBook(idle_timeout=10, clock=clock)
    book.opened("s1", "10.0.0.1")
    book.opened("s2", "10.0.0.1")
    book.opened("s3", "10.0.0.2")
    assert book.count("10.0.0.1") == 2 and book.count("10.0.0.2") == 1
    book.ended("s1")
    assert book.count("10.0.0.1") == 1
    book.request_started("s2")  # a request (or a GET stream) in flight: never idle
    clock.now += 60
    assert book.count("10.0.0.1") == 1 and book.count("10.0.0.2") == 0
    book.request_finished("s2")
    clock.now += 9
    assert book.count("10.0.0.1") == 1
    clock.now += 1
    assert book.count("10.0.0.1") == 0 and len(book) == 0


def test_without_idle_timeout_sessions_last_until_ended() -> None:
    clock = Clock()
    book = SessionBook(idle_timeout=None, clock=clock)
    book.opened("s1", "c")
    clock.now += 1e9
    assert book.count("c") == 1
    book.request_started("unknown")  # ids the server never issued are not recorded
    assert len(book) == 1


class FakeSdk:
    """Issues a session on each POST without one; knows only the sessions in `live`."""

    def __init__(self) -> None:
        self.live: set[str] = set()
        self.issued = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        session = dict(scope["headers"]).get(b"mcp-session-id")
        headers: list[tuple[bytes, bytes]] = []
        if session is None:
            self.issued += 1
            new = f"s{self.issued}"
            self.live.add(new)
            headers.append((b"mcp-session-id", new.encode()))
            status = 200
        elif session.decode() in self.live:
            status = 200
            if scope["method"] == "DELETE":
                self.live.discard(session.decode())
        else:
            status = 404
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"{}"})


async def _request(gate: Gate, method: str, session: str | None = None) -> tuple[int, str | None]:
    headers = [(b"content-type", b"application/json")]
    if session:
        headers.append((b"mcp-session-id", session.encode()))
    scope = {"type": "http", "method": method, "path": "/mcp", "headers": headers}
    scope["client"] = ("10.0.0.9", 5555)
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": json.dumps({}).encode(), "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await gate(scope, receive, send)
    start = sent[0]
    issued = dict(start.get("headers", [])).get(b"mcp-session-id")
    return start["status"], issued.decode() if issued else None


@pytest.mark.anyio
async def test_gate_frees_a_slot_on_delete_and_on_404() -> None:
    sdk = FakeSdk()
    gate = Gate(sdk, GateLimits(1 << 20, 5.0, max_sessions_per_client=2))
    first = (await _request(gate, "POST"))[1]
    second = (await _request(gate, "POST"))[1]
    assert first and second
    assert (await _request(gate, "POST"))[0] == 429
    assert (await _request(gate, "DELETE", first))[0] == 200
    third = (await _request(gate, "POST"))[1]
    assert third
    sdk.live.discard(second)  # ended inside the SDK (e.g. its server task failed)
    assert (await _request(gate, "POST"))[0] == 429
    assert (await _request(gate, "POST", second))[0] == 404
    assert (await _request(gate, "POST"))[0] == 200


def test_the_runtime_reads_no_private_sdk_session_state() -> None:
    for module in RUNTIME.glob("*.py"):
        assert "_server_instances" not in module.read_text(encoding="utf-8"), module.name
