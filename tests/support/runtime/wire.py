"""Raw JSON-RPC over a real server process's stdio pipes, for tests of what goes on the wire."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from tests.support.runtime.stdio_session import INITIALIZE, INITIALIZED


class StdioSession:
    """One server process; `request` writes a line and reads lines until the answer to it.

    The server's stderr goes to a file, not a pipe: a pipe nobody reads fills up (64 kB) and
    blocks a server that logs a lot, such as one timing out hundreds of calls.
    """

    def __init__(self, process: subprocess.Popen[bytes], log: IO[bytes]) -> None:
        self.process = process
        self._log = log
        self._next_id = 100

    def stderr(self) -> str:
        """What the server wrote to stderr so far."""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

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
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [sys.executable, str(server), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,
        env={**os.environ, **(env or {})},
    )
    try:
        session = StdioSession(process, log)
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
            process.wait()


def text(result: dict[str, Any]) -> str:
    return "\n".join(block.get("text", "") for block in result["content"])
