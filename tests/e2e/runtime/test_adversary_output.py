"""What a handler prints, on a real server process: never on the protocol channel, never a
secret (the values of the manifest's `secret: true` variables), on either transport."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

from tests.support.runtime import SERVERS, http_wire
from tests.support.runtime.hostile_tools import SECRET_ENV
from tests.support.runtime.stdio_session import INITIALIZE, INITIALIZED

HERE = SERVERS
SECRET = "s3cret-Pa55word"
# Started as a generated server starts (`entry.console.main`), and through `serve.main`.
STDIO_SERVERS = ["adversary_server.py", "hostile_server.py"]


def _line(message: dict[str, object]) -> bytes:
    return json.dumps(message).encode() + b"\n"


@pytest.mark.parametrize("server", STDIO_SERVERS)
def test_stdio_a_printed_secret_is_redacted_on_stderr_and_stdout_stays_protocol(
    server: str,
) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "prints_secret", "arguments": {}},
    }
    with tempfile.TemporaryFile() as log:
        done = subprocess.run(
            [sys.executable, str(HERE / server)],
            input=_line(INITIALIZE) + _line(INITIALIZED) + _line(call),
            stdout=subprocess.PIPE,
            stderr=log,
            env={**os.environ, SECRET_ENV: SECRET},
            timeout=60,
            check=False,
        )
        log.seek(0)
        stderr = log.read().decode()
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.splitlines()]  # JSON, every line
    assert [answer.get("id") for answer in answers] == [0, 1]
    assert answers[1]["result"]["content"][0]["text"] == "printed"
    assert SECRET not in stderr
    printed = ("stdout:", "stderr:", "pieces:", "bytes:", "flushed:", "flushed in pieces:")
    for each in (*printed, "original streams:"):
        assert f"{each} " in stderr
    assert stderr.count("[redacted]") == 8
    assert f"unfinished: {SECRET[:3]}" in stderr


def test_http_a_printed_secret_is_redacted_on_stdout_and_stderr() -> None:
    port = http_wire.free_port()
    command = [sys.executable, str(HERE / "hostile_server.py"), "--transport", "http"]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [*command, "--port", str(port), "--stateless"],
            stdout=out,
            stderr=err,
            env={**os.environ, SECRET_ENV: SECRET},
        )
        server = http_wire.HttpServer(process, port)
        try:
            _wait_until_healthy(server)
            assert server.call("prints_secret", {})["content"][0]["text"] == "printed"
        finally:
            assert server.stop() == 0
        printed = b""
        for stream in (out, err):
            stream.seek(0)
            printed += stream.read()
    assert SECRET.encode() not in printed
    assert printed.count(b"[redacted]") == 8
    assert f"unfinished: {SECRET[:3]}".encode() in printed


def _wait_until_healthy(server: http_wire.HttpServer) -> None:
    deadline = time.monotonic() + 20
    while True:
        assert server.process.poll() is None and time.monotonic() < deadline
        try:
            if server.request("GET", "/healthz", timeout=2).status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
