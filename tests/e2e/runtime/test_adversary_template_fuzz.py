"""Hypothesis-drawn URIs against resource templates of a real server, over its stdio and over
real HTTP: whatever the URI, the handler is never given what could take it out of a folder,
a typed value is never a non-finite number, and a refusal is invalid params, small."""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.e2e.runtime.test_adversary_templates import (
    ENV,
    SERVER,
    _rpc,
    _session,
    http_catalog,
)
from tests.support.runtime.wire import StdioSession, stdio_session

# Template prefix → whether its variables may hold '/' (False: one path segment each).
PREFIXES = {
    "notes://": False,
    "files://": False,
    "docs://": True,
    "tree://": True,
    "seg://x": True,
    "matrix://m": False,
    "page://p": True,  # a query value may hold '/', never '..'
    "search://s": True,
    "dot://h": False,
    "num://": False,
    "flag://": False,
}
# The pieces attacks are made of: separators, their escapes (once and twice), look-alikes,
# control characters, and what typed values must refuse.
PIECES = [
    "..", ".", "/", "%2F", "%2f", "%2e", "%2E", "%00", "%5C", "\\", "%252e", "%252F", "%25",
    "%C0%AE", "%C0%AF", "\uff0e", "%EF%BC%8E", "\uff0f", "%EF%BC%8F", "C:", "a", "1", "+5",
    "1_000", "?", "&", "=", "#", ";", ",", ".", "q=", "page=", "x=", "y=", "n=", "NaN",
    "1e999", "Infinity", "\x00", "\n", "%0A", "%7F", "\u0665", "%D9%A5", " ", "%20", "-",
    "0", "e5", "%ZZ", "%", "true", "\u202e",
]  # fmt: skip
URIS = st.builds(
    lambda prefix, pieces: prefix + "".join(pieces),
    st.sampled_from(list(PREFIXES)),
    st.lists(st.sampled_from(PIECES), max_size=14),
)
INVALID_PARAMS = -32602
NOT_FOUND = -32002


def _readings(value: str) -> list[str]:
    once = unquote(value)
    return [value, unicodedata.normalize("NFKC", value), once, unquote(once)]


def assert_given_safely(uri: str, answer: dict[str, Any]) -> None:
    """The invariants of any answer to a read of `uri` from a template whose variables are
    none of them raw."""
    assert len(json.dumps(answer)) < 4_000, (uri, json.dumps(answer)[:300])
    if "error" in answer:
        assert answer["error"]["code"] in (INVALID_PARAMS, NOT_FOUND), (uri, answer)
        return
    values = json.loads(answer["result"]["contents"][0]["text"])
    one_segment = not next(PREFIXES[p] for p in PREFIXES if uri.startswith(p))
    for name, (value, _) in values.items():
        if isinstance(value, float):
            assert math.isfinite(value), (uri, values)
        if not isinstance(value, str) or name == "q":
            continue
        for form in _readings(value):
            assert ".." not in form.replace("\\", "/").split("/"), (uri, values)
            assert not any(unicodedata.category(char) == "Cc" for char in form), (uri, values)
            assert not form.startswith(("/", "\\")), (uri, values)
            if one_segment:
                assert "/" not in form and "\\" not in form, (uri, values)


def _check_q(uri: str, answer: dict[str, Any]) -> None:
    """A query value may hold '/', but not '..' or a control character either."""
    if "result" not in answer:
        return
    values = json.loads(answer["result"]["contents"][0]["text"])
    if "q" in values:
        for form in _readings(values["q"][0]):
            assert ".." not in form.replace("\\", "/").split("/"), (uri, values)
            assert not any(unicodedata.category(char) == "Cc" for char in form), (uri, values)


FUZZ = settings(
    max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


@pytest.fixture(scope="module")
def session() -> Iterator[StdioSession]:
    with stdio_session(SERVER, env=ENV) as opened:
        yield opened


@FUZZ
@given(uri=URIS)
def test_fuzzed_uris_over_stdio(session: StdioSession, uri: str) -> None:
    answer = session.request("resources/read", {"uri": uri})
    assert_given_safely(uri, answer)
    _check_q(uri, answer)


def test_fuzzed_uris_over_http() -> None:
    with http_catalog() as server:
        opened = _session(server)

        @FUZZ
        @given(uri=URIS)
        def read_over_http(uri: str) -> None:
            answer = _rpc(server, opened, "resources/read", {"uri": uri})
            assert_given_safely(uri, answer)
            _check_q(uri, answer)

        read_over_http()


@FUZZ
@given(uri=URIS)
def test_fuzzed_uris_to_subscribe_and_unsubscribe(session: StdioSession, uri: str) -> None:
    for method in ("resources/subscribe", "resources/unsubscribe"):
        answer = session.request(method, {"uri": uri})
        assert len(json.dumps(answer)) < 4_000, answer
        if "error" in answer:
            assert answer["error"]["code"] in (INVALID_PARAMS, NOT_FOUND), (uri, answer)
