"""A real HTTP server process on 127.0.0.1 and raw requests to it, for the HTTP tests."""

from __future__ import annotations

import http.client
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_IDS = itertools.count(1)  # concurrent calls in one session need distinct ids
SERVER = Path(__file__).with_name("hostile_server.py")
ACCEPT = "application/json, text/event-stream"
INITIALIZE_PARAMS = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "raw", "version": "0"},
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        text = self.body.decode()
        if text.startswith(("event:", "data:", "id:", ":")):
            data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
            return json.loads([d for d in data if d][-1])
        return json.loads(text)


@dataclass
class HttpServer:
    process: subprocess.Popen[bytes]
    port: int
    headers: dict[str, str] = field(default_factory=dict)  # sent with every request

    def request(
        self,
        method: str,
        path: str = "/mcp",
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 20,
    ) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers={**self.headers, **(headers or {})})
            response = connection.getresponse()
            return Answer(
                response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
            )
        finally:
            connection.close()

    def post(self, message: dict[str, Any], session: str | None = None, **headers: str) -> Answer:
        sent = {"content-type": "application/json", "accept": ACCEPT, **headers}
        if session:
            sent["mcp-session-id"] = session
        return self.request("POST", body=json.dumps(message).encode(), headers=sent)

    def open_session(self, **headers: str) -> Answer:
        initialize = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": INITIALIZE_PARAMS,
        }
        answer = self.post(initialize, **headers)
        session = answer.headers.get("mcp-session-id")
        if answer.status == 200 and session:
            initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            self.post(initialized, session=session, **headers)
        return answer

    def call(self, name: str, arguments: dict[str, Any], session: str | None = None) -> Any:
        message = {
            "jsonrpc": "2.0",
            "id": next(_IDS),
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
        answer = self.post(message, session=session)
        assert answer.status == 200, (answer.status, answer.body)
        return answer.json()["result"]

    def stop(self) -> int:
        """SIGTERM, then the exit code (bounded wait)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        finally:
            self.process.kill()


def start(args: Sequence[str], env: Mapping[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(SERVER), "--transport", "http", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "HOSTILE_DB_PASSWORD": "not-a-secret-here", **(env or {})},
    )


@contextmanager
def http_server(
    args: Sequence[str] = (), env: Mapping[str, str] | None = None, host: str = "127.0.0.1"
) -> Iterator[HttpServer]:
    port = free_port()
    with serving(start(["--host", host, "--port", str(port), *args], env), port) as server:
        yield server


@contextmanager
def serving(process: subprocess.Popen[bytes], port: int) -> Iterator[HttpServer]:
    """The HTTP server `process` started on `port`, once `/healthz` answers; stopped after."""
    server = HttpServer(process, port)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                if server.request("GET", "/healthz", timeout=2).status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not start in 20 s"
            time.sleep(0.1)
        yield server
    finally:
        server.stop()
