"""mcpgen's stdio and HTTP transports, fast paths on, answer what the SDK's own transports
answer, byte for byte, over the same requests at every protocol version the SDK knows.

One side is the SDK's `stdio_server` (and its stateless Streamable HTTP app), the other the
runtime's console entry as a generated project runs it: the opening, the byte pump and the
fast paths. Both serve the same server (`fast_path_tools`), each in its own process, over
real pipes and real sockets on 127.0.0.1. The corpus and the one way mcpgen may differ (an
answer where the SDK stays silent) are in `fast_path_corpus`.

A seeded sample of the corpus runs by default; `pytest --full` (or `MCPGEN_FULL=1`) runs
all of it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from mcpgen.runtime.core.sdk_contract import SWITCH_ENV
from tests.differential.fast_path_corpus import (
    FAST,
    INITIALIZED,
    OPENING,
    HttpCase,
    Session,
    call,
    http_cases,
    initialize,
    line,
    sessions,
)
from tests.differential.fast_path_wire import (
    PATIENCE,
    ROOT,
    SERVER,
    HttpSide,
    Transcript,
    http_side,
    normalised,
    stdio_session,
)
from tests.support.sweep import drawn

SESSIONS = drawn(sessions(), sample=4)
HTTP_CASES = drawn(http_cases(), sample=12)


def _both(session: Session) -> tuple[Transcript, Transcript]:
    """The SDK's answers and mcpgen's to `session`, the two servers run side by side."""
    opening = len(session.answered_by(OPENING))
    with ThreadPoolExecutor(2) as pool:
        sdk = pool.submit(stdio_session, "sdk-stdio", session.catalog, session.lines)
        ours = pool.submit(stdio_session, "mcpgen-stdio", session.catalog, session.lines, opening)
        return sdk.result(), ours.result()


@pytest.mark.parametrize("session", SESSIONS, ids=[s.name for s in SESSIONS])
def test_stdio_answers_are_the_sdks(session: Session) -> None:
    sdk, ours = _both(session)
    theirs, mine = Counter(map(normalised, sdk.answers)), Counter(map(normalised, ours.answers))
    assert theirs, f"the SDK answered nothing: {sdk.stderr}"
    missing, extra = theirs - mine, mine - theirs
    assert not missing, f"mcpgen did not send the SDK's answers{_shown(missing)}\n{ours.stderr}"
    unexpected = extra - Counter(session.extra)
    assert not unexpected, f"mcpgen answered where the SDK is silent{_shown(unexpected)}"
    assert extra == Counter(session.extra), f"not answered:{_shown(Counter(session.extra) - extra)}"
    # Each part of mcpgen's server answered its share.
    opened = [_id(answer) for answer in ours.before_load]
    _assert_same(opened, session.answered_by(OPENING), "answered by the opening")
    if session.plain_handshake:
        _assert_same(ours.fast_path_took, session.answered_by(FAST), "taken by the fast path")


def test_with_the_fast_paths_off_the_server_says_why_once_and_answers_as_the_sdk() -> None:
    session = next(s for s in sessions() if s.plain_handshake)
    sdk = stdio_session("sdk-stdio", session.catalog, session.lines)
    ours = stdio_session("mcpgen-stdio", session.catalog, session.lines, env={SWITCH_ENV: "0"})
    said = [line for line in ours.stderr.splitlines() if "are off" in line]
    assert said == [
        "WARNING:mcpgen.runtime.core.sdk_contract:the opening answers and fast paths are off, "
        f"the SDK answers every request: {SWITCH_ENV}=0"
    ]
    assert ours.fast_path_took == []
    mine, theirs = Counter(map(normalised, ours.answers)), Counter(map(normalised, sdk.answers))
    assert mine - theirs == Counter(session.extra)
    assert not theirs - mine


def test_calls_running_when_the_input_ends_are_answered_where_the_sdk_cuts_them() -> None:
    """Where mcpgen answers otherwise on purpose: at the end of the input the SDK answers a
    call still running with "Connection closed"; mcpgen lets it finish (for up to
    `stdio.transport.DRAIN_SECONDS`) and sends its result."""
    lines = [line(initialize("2025-11-25")), INITIALIZED, call("nap", "nap", {})]
    sdk = stdio_session("sdk-stdio", "tools-only", lines, end_at_once=True)
    ours = stdio_session("mcpgen-stdio", "tools-only", lines, end_at_once=True)
    theirs = {_id(answer): json.loads(answer) for answer in sdk.answers}
    mine = {_id(answer): json.loads(answer) for answer in ours.answers}
    assert theirs["nap"]["error"] == {"code": -32000, "message": "Connection closed"}
    assert mine["nap"]["result"]["content"][0]["text"] == "rested"
    assert ours.fast_path_took == ["nap"]


@pytest.mark.parametrize("paths", ["on", "off"])
def test_an_empty_input_ends_both_servers_at_once(paths: str) -> None:
    """`server < /dev/null`: nothing to answer, and both exit 0 straight away."""
    env = {SWITCH_ENV: "0"} if paths == "off" else {}
    for side in ("sdk-stdio", "mcpgen-stdio"):
        done = subprocess.run(
            [sys.executable, str(SERVER), side, "tools-only"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), **env},
            timeout=PATIENCE,
            check=False,
        )
        assert (done.returncode, done.stdout) == (0, b""), done.stderr.decode()


def _shown(answers: Counter[bytes]) -> str:
    return "".join(f"\n  {a[:200]!r}" for a in answers.elements())


def _id(answer: bytes) -> object:
    return json.loads(answer).get("id")


def _assert_same(ids: list[object], expected: list[object], what: str) -> None:
    found, wanted = Counter(map(repr, ids)), Counter(map(repr, expected))
    assert found == wanted, f"{what}: {list(found - wanted)}, not {list(wanted - found)}"


@pytest.fixture(scope="module", params=[False, True], ids=["sse", "json"])
def http_pair(request: pytest.FixtureRequest) -> Iterator[tuple[HttpSide, HttpSide, bool]]:
    """The SDK's stateless Streamable HTTP app and mcpgen's stateless HTTP server, both
    answering with SSE streams (or both with JSON bodies); the last item says which."""
    json_response = bool(request.param)
    with ThreadPoolExecutor(2) as pool:
        started = [
            pool.submit(http_side, side, "everything", json_response)
            for side in ("sdk-http", "mcpgen-http")
        ]
        sdk, ours = (future.result() for future in started)
    yield sdk, ours, json_response
    sdk.stop()
    ours.stop()


@pytest.mark.parametrize("case", HTTP_CASES, ids=[c.name for c in HTTP_CASES])
def test_http_answers_are_the_sdks(
    http_pair: tuple[HttpSide, HttpSide, bool], case: HttpCase
) -> None:
    sdk, ours, json_response = http_pair
    before = len(ours.took)
    headers = case.sent_headers()
    assert ours.send(case.method, headers, case.body) == sdk.send(case.method, headers, case.body)
    taken = ours.took[before:]
    _assert_same(taken, [case.id] if case.taken(json_response) else [], "taken by the fast path")
