"""A raw JSON-RPC session with a server over a real stdio pipe: lines in, lines out, so what
is read is exactly what went on the wire."""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


class Session:
    """Requests answered one at a time, in order."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self._process = process

    def send(self, line: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def request(self, message: dict[str, Any] | str) -> dict[str, Any]:
        self.send(message if isinstance(message, str) else json.dumps(message))
        assert self._process.stdout is not None
        answer: dict[str, Any] = json.loads(self._process.stdout.readline())
        return answer

    @classmethod
    @contextlib.contextmanager
    def open(
        cls, command: Sequence[str], env: Mapping[str, str] | None = None
    ) -> Iterator[Session]:
        """Start the server, initialize, and close its stdin (it then exits) at the end."""
        process = subprocess.Popen(
            list(command),
            env=None if env is None else dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        try:
            session = cls(process)
            assert "result" in session.request(INITIALIZE)
            session.send(json.dumps(INITIALIZED))
            yield session
        finally:
            assert process.stdin is not None
            process.stdin.close()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
