"""mcpgen's stdio and HTTP transports, fast paths on, answer what the SDK's own transports
answer, byte for byte, over the same requests at every protocol version the SDK knows.

One side is the SDK's `stdio_server` (and its stateless Streamable HTTP app), the other the
runtime's console entry as a generated project runs it: the opening, the byte pump and the
fast paths. Both serve the same server (`fast_path_tools`), each in its own process, over
real pipes and real sockets on 127.0.0.1. The corpus and the one way mcpgen may differ (an
answer where the SDK stays silent) are in `fast_path_corpus`.

A seeded sample of the corpus runs by default; `MCPGEN_FULL_DIFFERENTIAL=1` runs all of it.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.differential.fast_path_corpus import FAST, OPENING, Session, sessions
from tests.differential.fast_path_sampling import drawn
from tests.differential.fast_path_wire import Transcript, normalised, stdio_session

SESSIONS = drawn(sessions(), sample=4)


def _both(session: Session) -> tuple[Transcript, Transcript]:
    """The SDK's answers and mcpgen's to `session`, the two servers run side by side."""
    opening = 1 + len(session.answered_by(OPENING)) if session.plain_handshake else None
    with ThreadPoolExecutor(2) as pool:
        sdk = pool.submit(stdio_session, "sdk-stdio", session.catalog, session.lines)
        ours = pool.submit(stdio_session, "mcpgen-stdio", session.catalog, session.lines, opening)
        return sdk.result(), ours.result()


@pytest.mark.parametrize("session", SESSIONS, ids=[s.name for s in SESSIONS])
def test_stdio_answers_are_the_sdks(session: Session) -> None:
    sdk, ours = _both(session)
    theirs, mine = Counter(map(normalised, sdk.answers)), Counter(map(normalised, ours.answers))
    assert theirs, f"the SDK answered nothing: {sdk.stderr}"
    assert not theirs - mine, f"mcpgen did not send the SDK's answers:\n{ours.stderr}"
    assert mine - theirs == Counter(session.extra), "mcpgen answered where the SDK is silent"
    if session.plain_handshake:  # each part of mcpgen's server answered its share
        assert sorted(map(repr, _ids(ours.before_load))) == sorted(
            map(repr, ["init", *session.answered_by(OPENING)])
        ), "the opening's answers, before the server loaded"
        assert sorted(map(repr, ours.fast_path_took)) == sorted(
            map(repr, session.answered_by(FAST))
        ), "the requests the stdio fast path took"


def _ids(answers: list[bytes]) -> list[object]:
    import json

    return [json.loads(a).get("id") for a in answers]
