"""A sealed 2026-07-28 `requestState` replayed against a real HTTP server: the state that
carried a user's confirmation counts once, on whatever session or connection it comes back;
another server (another key) refuses it outright."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.runtime import SERVERS, http_wire

SERVER = SERVERS / "context_server.py"
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "replayer", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
}
HEADERS = {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "destroy"}
ACCEPT = {"confirm_call": {"action": "accept", "content": {}}}


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Any]]:
    monkeypatch.setattr(http_wire, "SERVER", SERVER)
    monkeypatch.delenv("MCP_STATE_SECRET", raising=False)
    with http_wire.http_server() as one, http_wire.http_server() as two:
        yield one, two


def destroy(server: Any, session: str | None = None, **retry: Any) -> dict[str, Any]:
    params = {"name": "destroy", "arguments": {}, "_meta": META, **retry}
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    answer: dict[str, Any] = server.post(message, session=session, **HEADERS).json()
    return answer


def confirmed(server: Any, state: str, session: str | None = None) -> dict[str, Any]:
    return destroy(server, session, inputResponses=ACCEPT, requestState=state)


def test_a_confirmed_state_replayed_is_asked_again_on_any_session(servers: Any) -> None:
    one, two = servers
    state = destroy(one)["result"]["requestState"]
    assert confirmed(one, state)["result"]["content"][0]["text"] == "destroyed"
    # The same retry again, then on two sessions of the same server: the user is asked anew.
    sessions = [one.open_session().headers["mcp-session-id"] for _ in range(2)]
    for session in (None, *sessions):
        replay = confirmed(one, state, session)["result"]
        assert replay["resultType"] == "input_required", session
    # Another server has another key: the state is refused outright.
    assert confirmed(two, state)["error"]["code"] == -32602


def test_a_state_used_once_on_another_session_counts_there(servers: Any) -> None:
    one, _ = servers
    state = destroy(one)["result"]["requestState"]
    session = one.open_session().headers["mcp-session-id"]
    assert confirmed(one, state, session)["result"]["content"][0]["text"] == "destroyed"
    assert confirmed(one, state)["result"]["resultType"] == "input_required"
