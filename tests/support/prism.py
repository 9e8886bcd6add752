"""`prism mock SPEC` (Stoplight's mock server, installed by `.ci/openapi-setup`) as a judge:
it answers each request from the spec's schemas and rejects (`--errors`) a request the spec
forbids, logging the violation. The log is read back request by request, so a test can fail
on any violation prism saw, not only on a status code.

Prism's log is text, one event a line: a request starts with
`[HTTP SERVER] get /path ... Request received`, its answer is
`> Responding with "200"` and every rule it broke is a `Violation: request ...` line.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.project_venv import REPO, free_port

NPM = REPO / ".test-npm" / "node_modules"
PRISM = NPM / ".bin" / "prism"
SETUP = "`bash .ci/openapi-setup`"
SEED = "22"  # dynamic answers are drawn from the schemas the same way every run

_RECEIVED = re.compile(r"\[HTTP SERVER\] (\w+) (\S+) .*Request received")
_RESPONDING = re.compile(r'Responding with "(\d{3})"')
_VIOLATION = re.compile(r"Violation: (\S+) (.*)$")
_ERROR = re.compile(r"[✖x]\s+error\s+(.*)$")


def prism_missing() -> str:
    """Why prism cannot run here, in one line; empty when it can."""
    return "" if PRISM.exists() else f"prism is not installed: run {SETUP}"


@dataclass
class Exchange:
    """One request prism received: what it was, the status it answered, what it objected to."""

    method: str
    path: str
    status: int | None = None
    violations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    request_valid: bool = False  # prism found the request within the spec's rules
    offset: int = 0  # where in the log prism noted the request

    @property
    def mock_fault(self) -> bool:
        """Prism refused its own answer: the request was valid, but the response it drew from
        the schemas broke them (json-schema-faker does not honour every keyword, e.g.
        `unevaluatedProperties` under `anyOf`). Nothing the caller did; no verdict on it."""
        return (
            self.request_valid
            and not self.violations
            and any("VIOLATIONS" in error for error in self.errors)
        )

    @property
    def ok(self) -> bool:
        """A 2xx answer to a request that broke none of the spec's rules."""
        return self.status is not None and 200 <= self.status < 300 and not self.violations

    def describe(self) -> str:
        broken = "; ".join(self.violations or self.errors)
        return f"{self.method.upper()} {self.path} -> {self.status}" + (
            f" ({broken})" if broken else ""
        )


_TERMINATED = re.compile(r"\[HTTP SERVER\] (\w+) (\S+) .*error\s+(.*)$")


def parse_log(text: str, base: int = 0) -> list[Exchange]:
    """The requests of a prism log, in the order it received them; `base` is the byte offset
    of `text` in the log, so each exchange knows where its request was logged.

    A request prism ends with an error is reported on a line of its own, which may come
    after the next request's lines: it goes to the latest request of that method and path."""
    exchanges: list[Exchange] = []
    offset = base
    for line in text.splitlines(keepends=True):
        at, offset = offset, offset + len(line.encode("utf-8"))
        if received := _RECEIVED.search(line):
            exchanges.append(Exchange(received[1], received[2], offset=at))
        elif terminated := _TERMINATED.search(line):
            same = [e for e in exchanges if (e.method, e.path) == terminated.group(1, 2)]
            if same:  # what the client got instead of the answer prism had chosen
                same[-1].errors.append(terminated[3].strip())
                same[-1].status = 500
        elif not exchanges:
            continue
        elif "request passed the validation rules" in line:
            exchanges[-1].request_valid = True
        elif responding := _RESPONDING.search(line):
            exchanges[-1].status = int(responding[1])
        elif violation := _VIOLATION.search(line):
            exchanges[-1].violations.append(f"{violation[1]}: {violation[2]}")
        elif error := _ERROR.search(line):
            exchanges[-1].errors.append(error[1].strip())
    return exchanges


@dataclass
class PrismMock:
    """A running `prism mock`: its base URL and its log, read from a position on."""

    spec: Path
    port: int
    log: Path
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def mark(self) -> int:
        """The log's current end: `exchanges(since=mark)` reads what came after it."""
        return self.log.stat().st_size

    def exchanges(self, since: int = 0, until: int | None = None) -> list[Exchange]:
        """Requests logged after byte `since` (and before byte `until`), with every line
        about them, even one logged later."""
        with self.log.open("rb") as handle:
            handle.seek(since)
            text = handle.read().decode("utf-8", "replace")
        found = parse_log(text, base=since)
        return [e for e in found if until is None or e.offset < until]

    def settled(self, since: int, count: int = 1, timeout: float = 5.0) -> list[Exchange]:
        """The requests since `since`, once at least `count` of them have their answer logged
        (prism writes the log a moment after it answers)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.exchanges(since)
            answered = [e for e in found if e.status is not None]
            if len(answered) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.02)

    def assert_clean(self, since: int = 0) -> None:
        """Fail on any request prism logged as breaking the spec, or answered with no 2xx
        (unless prism's own answer was at fault)."""
        bad = [e.describe() for e in self.exchanges(since) if not e.ok and not e.mock_fault]
        assert not bad, f"prism ({self.spec.name}) objected to:\n" + "\n".join(bad)


def _wait_listening(mock: PrismMock, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if mock.process.poll() is not None:
            raise AssertionError(
                f"prism exited with {mock.process.returncode} before listening:\n"
                + mock.log.read_text(encoding="utf-8", errors="replace")[-3000:]
            )
        if "Prism is listening" in mock.log.read_text(encoding="utf-8", errors="replace"):
            return
        time.sleep(0.1)
    raise AssertionError(f"prism did not listen on {mock.port} within {timeout} s ({mock.log})")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to prism's process group (npm's shim and node), then SIGKILL if it lingers."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextlib.contextmanager
def prism_mock(spec: Path, log: Path, *, dynamic: bool = True) -> Iterator[PrismMock]:
    """Run `prism mock SPEC --errors` on a free 127.0.0.1 port until the block ends.

    `dynamic`: answers are generated from the response schemas (seeded), not copied from the
    spec's examples, which real specs often let drift from their own schemas."""
    port = free_port()
    command = [str(PRISM), "mock", str(spec), "--host", "127.0.0.1", "--port", str(port)]
    command += ["--errors", *(["--dynamic", "--seed", SEED] if dynamic else [])]
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
        )
    mock = PrismMock(spec, port, log, process)
    try:
        # A thousand-operation spec takes prism a while to read and index.
        _wait_listening(mock, timeout=180)
        yield mock
    finally:
        _stop(process)
