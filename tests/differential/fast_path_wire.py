"""Running the judged servers as real processes: stdio sessions over pipes, HTTP on 127.0.0.1."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.differential.fast_path_server import HOLD_FD, TOOK_FILE

SERVER = Path(__file__).with_name("fast_path_server.py")
ROOT = Path(__file__).resolve().parents[2]
QUIET = 0.3  # seconds without output after which a side has said all it will
PATIENCE = 20.0  # seconds an expected answer may take, on a busy machine
HANDOVER = 0.5  # seconds the opening is given to read a line it hands over
SETTLED = 10.0  # seconds without output after which answers still missing will not come


def normalised(answer: bytes) -> bytes:
    """`answer` with what differs from run to run (the id an unexpected error is logged
    under) made constant."""
    return re.sub(rb"error id [0-9a-f]{12}", b"error id ID", answer)


def expected_ids(lines: list[bytes]) -> list[Any]:
    """The ids of the well-formed requests among `lines`, which are answered (a guess, for
    waiting only: what each side answers is judged by comparison)."""
    found = []
    for raw in lines:
        try:
            message = json.loads(raw)
            json.dumps(message, ensure_ascii=False).encode()  # no lone surrogate
        except ValueError:
            continue
        if (
            isinstance(message, dict)
            and message.get("jsonrpc") == "2.0"
            and isinstance(message.get("method"), str)
            and type(message.get("id")) in (str, int)
        ):
            found.append(message["id"])
    return found


class _Output:
    """A process's stdout, read line by line on a thread as it comes."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.lines: list[bytes] = []
        self._changed = threading.Condition()
        self._last = time.monotonic()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for raw in self._stream:
            with self._changed:
                self.lines.append(raw.rstrip(b"\n"))
                self._last = time.monotonic()
                self._changed.notify_all()

    def wait_for(self, count: int) -> bool:
        """Until `count` lines are in (False if they are not within `PATIENCE`)."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self.lines) >= count, timeout=PATIENCE)

    def wait_for_ids(self, ids: list[Any]) -> None:
        """Until every id in `ids` is answered, or no line came for `SETTLED` seconds."""

        def answered() -> bool:
            seen = [_id_of(raw) for raw in self.lines]
            return all(seen.count(i) >= ids.count(i) for i in ids)

        if ids:
            self.wait_for(1)
        with self._changed:
            while not answered() and time.monotonic() - self._last < SETTLED:
                self._changed.wait(timeout=0.1)

    def wait_quiet(self) -> None:
        """Until no line came for `QUIET` seconds."""
        while (idle := time.monotonic() - self._last) < QUIET:
            time.sleep(QUIET - idle)
        self._last = time.monotonic() - QUIET  # the next wait starts from now

    def join(self) -> list[bytes]:
        self._thread.join(timeout=PATIENCE)
        return list(self.lines)


def _id_of(raw: bytes) -> Any:
    try:
        message = json.loads(raw)
    except ValueError:
        return None
    return message.get("id") if isinstance(message, dict) else None


@dataclass
class Transcript:
    """What one side answered in a session."""

    answers: list[bytes]
    before_load: list[bytes] = field(default_factory=list)  # answered while the server loaded
    fast_path_took: list[Any] = field(default_factory=list)
    stderr: str = ""


def stdio_session(
    side: str,
    catalog: str,
    lines: list[bytes],
    opening_answers: int | None = None,
    env: dict[str, str] | None = None,
    *,
    end_at_once: bool = False,
) -> Transcript:
    """Send `lines` to a fresh `side` server, keep its input open until every request is
    answered, then end it; what it answered.

    `opening_answers` (mcpgen only): how many answers the opening gives before the server
    is let load (`before_load`); None lets it load at once. `env`: more environment.
    `end_at_once`: end the input right after `lines`, answered or not.
    """
    command = [sys.executable, str(SERVER), side, catalog]
    took = tempfile.NamedTemporaryFile(prefix="took-", delete=False)
    took.close()
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT), TOOK_FILE: took.name}
    hold_read, hold_write = os.pipe()
    if side.startswith("mcpgen"):
        env[HOLD_FD] = str(hold_read)
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        pass_fds=(hold_read,),
        cwd=ROOT,
    )
    os.close(hold_read)
    assert process.stdin is not None
    output = _Output(process.stdout)
    errors: list[bytes] = []
    err_reader = threading.Thread(target=lambda: errors.append(process.stderr.read()))  # type: ignore[union-attr]
    err_reader.start()
    try:
        process.stdin.write(b"".join(raw + b"\n" for raw in lines))
        process.stdin.flush()
        before_load: list[bytes] = []
        if opening_answers is not None:
            if opening_answers:
                output.wait_for(opening_answers)
            else:  # nothing to wait for: time for the opening to read and hand over
                time.sleep(HANDOVER)
            output.wait_quiet()
            before_load = list(output.lines)
        os.close(hold_write)  # the server loads now
        hold_write = -1
        if not end_at_once:
            output.wait_for_ids(expected_ids(lines))
            output.wait_quiet()
        process.stdin.close()
        process.wait(timeout=PATIENCE)
    finally:
        if hold_write >= 0:
            os.close(hold_write)
        if process.poll() is None:
            process.kill()
            process.wait()
    answers = output.join()
    err_reader.join(timeout=PATIENCE)
    stderr = b"".join(errors).decode("utf-8", "replace")
    taken = _took(took.name)
    os.unlink(took.name)
    return Transcript(answers, before_load, taken, stderr)


# --- HTTP ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Reply:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


# Headers that differ from one answer to the next, or name the server program.
VARYING = frozenset({"date", "server"})


@dataclass
class HttpSide:
    """A server process on 127.0.0.1:`port`, its output in `log`, the requests its fast
    path took in the file `took`."""

    process: subprocess.Popen[bytes]
    port: int
    log: Any
    took_file: str

    def send(self, method: str, headers: dict[str, str], body: bytes | None) -> Reply:
        """One request to /mcp: the reply's status, headers (less `VARYING`) and body."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=PATIENCE)
        try:
            connection.putrequest(method, "/mcp", skip_host=True, skip_accept_encoding=True)
            for name, value in {"Host": f"127.0.0.1:{self.port}", **headers}.items():
                connection.putheader(name, value)
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            read = response.getheaders()
            kept = sorted((k.lower(), v) for k, v in read if k.lower() not in VARYING)
            # A GET's answer may be an event stream that stays open: its head is compared.
            body = b"" if method == "GET" else normalised(response.read())
            return Reply(response.status, tuple(kept), body)
        finally:
            connection.close()

    @property
    def took(self) -> list[Any]:
        """The ids of the requests its fast path took so far."""
        return _took(self.took_file)

    def stop(self) -> str:
        """Stop the server (SIGTERM, as a deployment does); what it logged."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.seek(0)
        text: str = self.log.read().decode("utf-8", "replace")
        self.log.close()
        with contextlib.suppress(OSError):
            os.unlink(self.took_file)
        return text


def http_side(side: str, catalog: str, json_response: bool) -> HttpSide:
    """A `side` server on a free port of 127.0.0.1, listening (stop it with `stop`)."""
    port = free_port()
    command = [sys.executable, str(SERVER), side, catalog, str(port)]
    if json_response:
        command.append("--json-response")
    took = tempfile.NamedTemporaryFile(prefix="took-", delete=False)
    took.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT), TOOK_FILE: took.name}
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env, cwd=ROOT
    )
    served = HttpSide(process, port, log, took.name)
    try:
        _wait_listening(served)
    except BaseException:
        served.stop()
        raise
    return served


def _wait_listening(side: HttpSide) -> None:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if side.process.poll() is not None:
            raise RuntimeError(f"the server exited at start: {side.stop()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", side.port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{side.port} after {PATIENCE} s")


def _took(path: str) -> list[Any]:
    try:
        with open(path, encoding="utf-8") as record:
            return [json.loads(line) for line in record]
    except FileNotFoundError:
        return []
