# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The `requestState` a call hands the client between rounds, and how it is protected.

From 2026-07-28 a handler that asks the client answers with an input-required result, and
the client retries the call with the answers and the state the server gave it. The state
records the answers of earlier rounds and which questions this round asked; the client holds
it, so it is sealed by the SDK's `RequestStateBoundary`: authenticated encryption (AES-256-GCM)
under a server key, bound to the method, the tool or prompt name, a digest of the arguments,
the authenticated caller and an expiry. A state that is forged, altered, expired or replayed
for another call is refused with the protocol's error before any handler runs.

The key is random per process unless a shared secret is given (several instances behind one
address must share it): `--state-secret-env VAR`, else `MCP_STATE_SECRET` when set.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp.server.request_state import (
    AESGCMRequestStateCodec,
    RequestStateBoundary,
    RequestStateSecurity,
)

from ..core.state_secret import DEFAULT_STATE_TTL, state_secret

_VERSION = 1
# States whose one use is remembered (the oldest forgotten first): far more than a server
# issues within any TTL, and a few MB at most.
SPENT_LIMIT = 100_000


def state_security(
    secret_env: str | None, ttl: float = DEFAULT_STATE_TTL, environ: Mapping[str, str] | None = None
) -> RequestStateSecurity:
    """The sealing policy: a shared secret from the environment, or a random key per process.

    Raises `StateSecretError` for a secret the command line names and the environment lacks,
    or one too weak to start with."""
    secret = state_secret(secret_env, environ)
    if not secret:
        return ephemeral_security(ttl)
    return RequestStateSecurity(codec=KeyedOnFirstUse(secret.encode()), ttl=ttl)


def ephemeral_security(ttl: float = DEFAULT_STATE_TTL) -> RequestStateSecurity:
    """The SDK's `RequestStateSecurity.ephemeral`: a random key held by this process only."""
    return RequestStateSecurity(codec=KeyedOnFirstUse(os.urandom(32)), ttl=ttl)


class KeyedOnFirstUse:
    """The SDK's AES-256-GCM codec under `key`, made when the first state is sealed or
    unsealed: deriving the key loads OpenSSL (over a MB), which a server whose handlers never
    ask the client anything does not need."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 32:  # refused at start-up, as the SDK's codec would be
            raise ValueError("request-state keys must be at least 32 bytes of secret randomness")
        self._key = key
        self._codec: AESGCMRequestStateCodec | None = None
        self._lock = threading.Lock()

    def _keyed(self) -> AESGCMRequestStateCodec:
        with self._lock:
            if self._codec is None:
                self._codec = AESGCMRequestStateCodec([self._key])
            return self._codec

    def seal(self, payload: bytes) -> str:
        """`payload` sealed: encrypted and authenticated under the key."""
        return self._keyed().seal(payload)

    def unseal(self, token: str) -> bytes:
        """The payload `token` seals; the SDK's `InvalidRequestState` for any other token."""
        return self._keyed().unseal(token)


def boundary(security: RequestStateSecurity, server_name: str) -> RequestStateBoundary:
    """Server middleware that seals every outgoing state and verifies every returning one.

    The server's name is the audience: state minted by another server sharing the secret
    is refused too.
    """
    return RequestStateBoundary(security, default_audience=server_name)


@dataclass
class CallState:
    """What one call carries from round to round (plain here; sealed on the wire)."""

    # Answers accepted in earlier rounds: key -> {"q": question fingerprint, "answer": wire}.
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Fingerprints of the questions the previous round asked, by key.
    asked: dict[str, str] = field(default_factory=dict)
    present: bool = False  # the request carried a (verified) state

    @classmethod
    def decode(cls, text: object) -> CallState:
        """The state the boundary verified; anything else is treated as no progress.

        A state counts once: sealed, it cannot be altered, but it could be sent again (the
        retry that carried a user's confirmation, replayed to run the tool once more). A
        state seen before carries no progress, so its questions are asked anew.
        """
        if not isinstance(text, str) or not text:
            return cls()
        try:
            decoded = json.loads(text)
        except ValueError:
            return cls(present=True)
        if not isinstance(decoded, dict) or decoded.get("v") != _VERSION:
            return cls(present=True)
        if not _SPENT.first_use(decoded.get("n")):
            return cls(present=True)
        answers, asked = decoded.get("answers"), decoded.get("asked")
        return cls(
            answers=answers if isinstance(answers, dict) else {},
            asked=asked if isinstance(asked, dict) else {},
            present=True,
        )

    def encode(self, asking: Mapping[str, str]) -> str:
        """This state, with the questions this round asks (by key), for the client to hold."""
        nonce = secrets.token_urlsafe(12)  # what makes each state one of a kind
        state = {"v": _VERSION, "n": nonce, "answers": self.answers, "asked": dict(asking)}
        return json.dumps(state, separators=(",", ":"))


class _SpentStates:
    """The nonces of the states already used, in this process."""

    def __init__(self, limit: int = SPENT_LIMIT) -> None:
        self._limit = limit
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()  # HTTP handlers may decode from worker threads

    def first_use(self, nonce: object) -> bool:
        if not isinstance(nonce, str):
            return False
        with self._lock:
            if nonce in self._seen:
                return False
            self._seen[nonce] = None
            while len(self._seen) > self._limit:
                self._seen.popitem(last=False)
        return True


_SPENT = _SpentStates()
