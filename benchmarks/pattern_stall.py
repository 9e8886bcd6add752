"""How long a runaway pattern argument takes, and how long another call waits meanwhile.

    python benchmarks/pattern_stall.py

1. regress alone (what the server ran in-process before, GIL held): `^(a+)+$` against
   `"a" * n + "!"`, each extra `a` doubling the time; extrapolated to n = 30.
2. The server's matcher (`bounded_regex.search`) on n = 30: RE2 for `^(a+)+$`; the child
   process, given up at the verdict deadline, for `^(a+)+\\1$`.
3. A real stdio server (tests/support/runtime/redos_server.py): the runaway call and a `ping`
   sent together; the time to each answer, median of 5 rounds.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mcpgen.runtime.validation import bounded_regex  # noqa: E402
from mcpgen.runtime.validation.regex_worker import compile_pattern  # noqa: E402

RUNAWAY = "a" * 30 + "!"
SERVER = REPO / "tests" / "support" / "runtime" / "redos_server.py"


def regress_alone() -> None:
    regex = compile_pattern("^(a+)+$")
    seconds = 0.0
    for n in range(16, 23):
        started = time.perf_counter()
        regex.find("a" * n + "!")
        seconds = time.perf_counter() - started
        print(f"regress ^(a+)+$  n={n}: {seconds * 1000:9.1f} ms")
    print(f"regress ^(a+)+$  n=30: ~{seconds * 2 ** (30 - 22):.0f} s (extrapolated, x2 per 'a')")


def server_matcher() -> None:
    for pattern in ("^(a+)+$", "^(a+)+\\1$"):
        bounded_regex.search(pattern, "aa")  # compiled, child started
        started = time.perf_counter()
        try:
            verdict = str(bounded_regex.search(pattern, RUNAWAY))
        except bounded_regex.PatternTimeout as exc:
            verdict = str(exc)
        elapsed = (time.perf_counter() - started) * 1000
        print(f"bounded_regex {pattern:12} n=30: {elapsed:9.3f} ms ({verdict})")


def _call(request_id: int, name: str, text: str | None = None) -> bytes:
    arguments = {} if text is None else {"text": text}
    params = {"name": name, "arguments": arguments}
    message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    return json.dumps(message).encode() + b"\n"


def stdio_server() -> None:
    process = subprocess.Popen(
        [sys.executable, str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {}},
    }
    process.stdin.write(json.dumps(initialize).encode() + b"\n")
    process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    process.stdin.flush()
    process.stdout.readline()
    request_id = 1
    for tool in ("nested", "nested_backreference"):
        process.stdin.write(_call(request_id, tool, "aa"))
        process.stdin.flush()
        process.stdout.readline()
        request_id += 1
        runaway, ping = [], []
        for _ in range(5):
            started = time.perf_counter()
            process.stdin.write(_call(request_id, tool, RUNAWAY) + _call(request_id + 1, "ping"))
            process.stdin.flush()
            for _ in range(2):
                answer = json.loads(process.stdout.readline())
                elapsed = (time.perf_counter() - started) * 1000
                (runaway if answer["id"] == request_id else ping).append(elapsed)
            request_id += 2
        print(
            f"stdio server {tool:20}: runaway call answered in "
            f"{statistics.median(runaway):8.1f} ms, concurrent ping in "
            f"{statistics.median(ping):6.1f} ms (median of 5)"
        )
    process.stdin.close()
    process.wait(timeout=20)


if __name__ == "__main__":
    regress_alone()
    server_matcher()
    stdio_server()
