# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The open HTTP sessions of each client, as seen from outside the SDK.

The per-client cap needs to know which sessions are still open, and the SDK lists them only
in private state. They are observed on the wire instead: a session opens when an initialize
answer carries a new `mcp-session-id`; it ends when a DELETE for it succeeds, when the SDK
answers 404 for it (ended or expired there), or when it has been idle — no request for it in
flight — for the idle timeout the SDK is given too, which is when the SDK expires it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Session:
    client: str
    idle_since: float
    in_flight: int = 0


class SessionBook:
    """Session id → owning client, with what expiry needs; only ids the server issued."""

    def __init__(
        self, idle_timeout: float | None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.idle_timeout = idle_timeout
        self._clock = clock
        self._sessions: dict[str, _Session] = {}

    def opened(self, session_id: str, client: str) -> None:
        """The server issued `session_id` to `client`."""
        self._sessions[session_id] = _Session(client, idle_since=self._clock())

    def ended(self, session_id: str) -> None:
        """Deleted, or unknown to the server: no longer counted."""
        self._sessions.pop(session_id, None)

    def request_started(self, session_id: str) -> None:
        session = self._sessions.get(session_id)
        if session is not None:
            session.in_flight += 1

    def request_finished(self, session_id: str) -> None:
        session = self._sessions.get(session_id)
        if session is not None:
            session.in_flight = max(0, session.in_flight - 1)
            session.idle_since = self._clock()

    def count(self, client: str) -> int:
        """How many sessions `client` holds open now (expired ones are forgotten first)."""
        self._forget_expired()
        return sum(1 for session in self._sessions.values() if session.client == client)

    def __len__(self) -> int:
        self._forget_expired()
        return len(self._sessions)

    def _forget_expired(self) -> None:
        if self.idle_timeout is None:
            return
        horizon = self._clock() - self.idle_timeout
        expired = [
            session_id
            for session_id, session in self._sessions.items()
            if session.in_flight == 0 and session.idle_since <= horizon
        ]
        for session_id in expired:
            del self._sessions[session_id]
