"""A generated server's command line: a value it cannot use is one line and exit status 2,
before anything starts, on both entry points (`entry.console.main`, the console script, and
`serve.main`)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.runtime import SERVERS
from tests.support.sweep import full_run

HERE = SERVERS
ENTRY_POINTS = {
    "boot": HERE / "adversary_server.py",
    "serve": HERE / "hostile_server.py",
}

BAD_VALUES = [
    ["--transport", "http", "--port", "99999"],
    ["--transport", "http", "--port", "0"],
    ["--transport", "http", "--port", "-1"],
    ["--log-level", "verbose"],
    ["--workers", "0"],
    ["--workers", "-3"],
    ["--workers", "99999999999999999999999"],
    ["--max-body-bytes", "-1"],
    ["--max-body-bytes", "0"],
    ["--max-result-bytes", "-1"],
    ["--timeout", "-5"],
    ["--timeout", "nan"],
    ["--timeout", "inf"],
    ["--timeout", "1e400"],
    ["--state-ttl", "0"],
    ["--read-timeout", "-1"],
    ["--idle-timeout", "nan"],
    ["--session-idle-timeout", "0"],
    ["--shutdown-grace", "-0.5"],
    ["--max-sessions", "-1"],
    ["--max-sessions-per-client", "1.5"],
    ["--port", "８０００"],  # noqa: RUF001  (full-width digits)
    ["--no-such-flag"],
]


def _run(entry: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ENTRY_POINTS[entry]), *args],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "HOSTILE_DB_PASSWORD": "x"},
    )


def _bad_values_by_entry() -> list[tuple[str, list[str]]]:
    """Each bad value on each entry point in a full run; in CI each value on one of them, in
    turn, so both entry points meet half the values (`tests/support/sweep.py`)."""
    entries = sorted(ENTRY_POINTS)
    if full_run():
        return [(entry, args) for args in BAD_VALUES for entry in entries]
    return [(entries[i % len(entries)], args) for i, args in enumerate(BAD_VALUES)]


@pytest.mark.parametrize(
    ("entry", "args"),
    _bad_values_by_entry(),
    ids=[f"{entry}-{' '.join(args)}" for entry, args in _bad_values_by_entry()],
)
def test_a_value_the_server_cannot_use_is_one_line_and_exit_2(entry: str, args: list[str]) -> None:
    done = _run(entry, args)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "error:" in lines[0] and "Traceback" not in done.stderr
    flag = args[-2] if len(args) > 1 else args[0]
    assert flag in lines[0]
    assert done.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        ["--log-level", "debug"],
        ["--timeout", "0"],
        ["--max-result-bytes", "0"],
        ["--workers", "1"],
        ["--max-body-bytes", "1024"],
    ],
    ids=" ".join,
)
def test_the_values_that_mean_something_are_accepted(args: list[str]) -> None:
    done = _run("boot", args)  # stdin is empty: the server starts, and ends at once
    assert done.returncode == 0, done.stderr
