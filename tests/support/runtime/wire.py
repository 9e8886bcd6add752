"""Raw JSON-RPC over a real server process's stdio pipes, for tests of what goes on the wire."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support.runtime.stdio_session import INITIALIZE, INITIALIZED


class StdioSession:
    """One server process; `request` writes a line and reads lines until the answer to it."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._next_id = 100

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"the server closed stdout (exit code {self.process.poll()})"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            answer = self.read()
            if answer.get("id") == self._next_id:
                return answer

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        answer = self.request("tools/call", {"name": name, "arguments": arguments})
        assert "result" in answer, answer
        result: dict[str, Any] = answer["result"]
        return result


@contextmanager
def stdio_session(
    server: Path, args: Sequence[str] = (), env: dict[str, str] | None = None
) -> Iterator[StdioSession]:
    process = subprocess.Popen(
        [sys.executable, str(server), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    try:
        session = StdioSession(process)
        assert "result" in session.request("initialize", INITIALIZE["params"])  # type: ignore[arg-type]
        session.send(INITIALIZED)
        yield session
    finally:
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(timeout=20)
        finally:
            process.kill()


def text(result: dict[str, Any]) -> str:
    return "\n".join(block.get("text", "") for block in result["content"])
