"""Hostile URIs against resource templates, over a real server's stdio and real HTTP: no
unsafe value reaches a handler, matching stalls no one, refusals stay small, and the
subscriptions of ended sessions are freed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from tests.support.runtime import SERVERS
from tests.support.runtime.catalog_server import SECRET_ENV
from tests.support.runtime.http_wire import HttpServer, free_port, serving
from tests.support.runtime.wire import StdioSession, stdio_session

SERVER = SERVERS / "catalog_server.py"
ENV = {SECRET_ENV: "s3cret-Pa55word"}
INVALID_PARAMS = -32602


@pytest.fixture(scope="module")
def session() -> Iterator[StdioSession]:
    with stdio_session(SERVER, ["--max-result-bytes", "100000"], env=ENV) as opened:
        yield opened


def read(session: StdioSession, uri: str) -> dict[str, Any]:
    return session.request("resources/read", {"uri": uri})


def given(answer: dict[str, Any]) -> dict[str, list[Any]]:
    assert "result" in answer, answer
    found: dict[str, list[Any]] = json.loads(answer["result"]["contents"][0]["text"])
    return found


def refused(answer: dict[str, Any], code: int = INVALID_PARAMS) -> str:
    assert "error" in answer, f"the handler was called: {answer}"
    assert answer["error"]["code"] == code, answer
    message: str = answer["error"]["message"]
    return message


UNSAFE = [
    ("notes://..%2F..%2Fetc%2Fpasswd%00/5", "folder"),
    ("notes://..%2F..%2Fetc%2Fpasswd/5", "folder"),
    ("notes://%2e%2e/5", "folder"),
    ("notes://%2E%2E/5", "folder"),
    ("notes://../5", "folder"),
    ("notes://a%2fb/5", "folder"),
    ("notes://a%5Cb/5", "folder"),
    ("notes://%00/5", "folder"),
    ("notes://a%0Ab/5", "folder"),
    ("notes://a%7Fb/5", "folder"),
    ("notes://%C0%AE%C0%AE/5", "folder"),  # overlong UTF-8 for '.': not UTF-8 at all
    ("notes://%ED%A0%80/5", "folder"),  # a surrogate's bytes
    ("notes://%FF/5", "folder"),
    ("notes://%ZZ/5", "folder"),  # a '%' that starts no escape: a broken URI
    ("notes://a%2/5", "folder"),
    ("notes://%/5", "folder"),
    ("search://s?q=100%", "q"),
    ("notes://%252e%252e/5", "folder"),  # '..' once the handler decodes it again
    ("notes://%25252e%25252e/5", "folder"),
    ("notes://%EF%BC%8E%EF%BC%8E/5", "folder"),  # fullwidth dots: '..' under NFKC
    ("notes://C:/5", "folder"),
    ("docs:///etc/passwd", "path"),
    ("docs://%2Fetc%2Fpasswd", "path"),
    ("docs://a/../../etc/passwd", "path"),
    ("docs://a/%2e%2E/%2E%2e/etc/passwd", "path"),
    ("docs://..\\..\\windows", "path"),
    ("docs://%5C%5Cserver%5Cshare", "path"),
    ("docs://a/b%00.txt", "path"),
    ("docs://a/%2e%2e%c0%afx", "path"),
    ("files://..%2Fsecret.txt", "name"),
    ("tree://a/../../b/c", "a"),  # the first variable takes as much as it can
    ("search://s?q=..%2F..%2Fetc%2Fpasswd", "q"),
    ("search://s?q=%00", "q"),
]


@pytest.mark.parametrize(("uri", "variable"), UNSAFE)
def test_an_unsafe_value_never_reaches_the_handler(
    session: StdioSession, uri: str, variable: str
) -> None:
    message = refused(read(session, uri))
    assert message.startswith(f"{variable}: "), message


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("notes://inbox/5", {"folder": ["inbox", "str"], "id": [5, "int"]}),
        ("notes://caf%C3%A9/5", {"folder": ["café", "str"], "id": [5, "int"]}),
        ("notes://1.0..2.0/5", {"folder": ["1.0..2.0", "str"], "id": [5, "int"]}),
        ("notes://.../5", {"folder": ["...", "str"], "id": [5, "int"]}),
        ("docs://a/b/c.txt", {"path": ["a/b/c.txt", "str"]}),
        ("files://report.final.pdf", {"name": ["report.final", "str"], "ext": ["pdf", "str"]}),
        ("search://s?q=a+b%20c", {"q": ["a+b c", "str"], "n": [10, "int"]}),
        ("search://s?n=3&utm=x&q=hi", {"q": ["hi", "str"], "n": [3, "int"]}),
        ("num://2.5", {"x": [2.5, "float"]}),
        ("num://-0", {"x": [-0.0, "float"]}),
        ("flag://true", {"on": [True, "bool"]}),
    ],
)
def test_safe_values_reach_the_handler_typed(
    session: StdioSession, uri: str, expected: dict[str, list[Any]]
) -> None:
    assert given(read(session, uri)) == expected


def test_a_raw_variable_is_given_as_decoded(session: StdioSession) -> None:
    answer = read(session, "git://diff/main..feature%2F..%2F..%00")
    assert given(answer) == {"range": ["main..feature/../..\x00", "str"]}


@pytest.mark.parametrize(
    "uri",
    [
        "num://nan",
        "num://NaN",
        "num://inf",
        "num://-Infinity",
        "num://1e999",
        "num://-1e999",
        "num://0x5",
        "num://%205",
        "notes://inbox/1_000",
        "notes://inbox/+5",
        "notes://inbox/%205",
        "notes://inbox/5%20",
        "notes://inbox/%09" + "5",
        "notes://inbox/%D9%A5",  # ARABIC-INDIC DIGIT FIVE
        "notes://inbox/%EF%BC%95",  # FULLWIDTH DIGIT FIVE
        "notes://inbox/5.0",
        "notes://inbox/" + "9" * 5000,
        "notes://inbox/0",
        "flag://True",
        "flag://1",
        "search://s?q=x&n=+5",
    ],
)
def test_typed_variables_are_strict(session: StdioSession, uri: str) -> None:
    refused(read(session, uri))


def test_a_refusal_stays_small_whatever_the_uri(session: StdioSession) -> None:
    for uri in (
        "notes://inbox/" + "x" * 60_000,
        "tag://" + "y" * 60_000,
        "files://" + "%C0" * 20_000 + ".x",
        "nothing://" + "z" * 1_000_000,
        "notes://" + "a" * 1_000_000 + "/5",
    ):
        answer = read(session, uri)
        refused(answer, answer["error"]["code"])
        assert len(json.dumps(answer)) < 2_000, len(json.dumps(answer))


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("prompts/get", {"name": "p" * 1_000_000}),
        ("prompts/get", {"name": "leak", "arguments": {"a" * 1_000_000: "x"}}),
        ("resources/list", {"cursor": "c" * 1_000_000}),
        ("resources/subscribe", {"uri": "w" * 1_000_000}),
        ("resources/unsubscribe", {"uri": "w" * 1_000_000}),
        (
            "completion/complete",
            {
                "ref": {"type": "ref/resource", "uri": "u" * 1_000_000},
                "argument": {"name": "t", "value": ""},
            },
        ),
        (
            "completion/complete",
            {
                "ref": {"type": "ref/prompt", "name": "n" * 1_000_000},
                "argument": {"name": "t", "value": ""},
            },
        ),
        (
            "completion/complete",  # the handler's 100 values are 500 KB
            {
                "ref": {"type": "ref/resource", "uri": "tag://{t}"},
                "argument": {"name": "t", "value": "x"},
            },
        ),
    ],
)
def test_no_answer_echoes_a_huge_request(
    session: StdioSession, method: str, params: dict[str, Any]
) -> None:
    answer = session.request(method, params)
    assert len(json.dumps(answer)) < 2_000, json.dumps(answer)[:300]


def test_a_uri_over_64_kib_is_refused_up_front(session: StdioSession) -> None:
    message = refused(read(session, "docs://" + "a/" * 40_000))
    assert "over the limit of 65536" in message
    long_name = "a" * 65_000  # the URI and its echo fit the result limit of this server
    assert "result" in read(session, "files://" + long_name[:40_000] + ".txt")
    message = refused(read(session, "docs://" + long_name), -32603)
    assert "over the server's limit" in message


@pytest.mark.parametrize(
    "uri", ["notes://\udcff/5", "docs://a\udcff", "nothing://\ud800", "ok://text\udcff"]
)
def test_a_uri_that_is_not_unicode_text_is_invalid_params(session: StdioSession, uri: str) -> None:
    assert "lone surrogate" in refused(read(session, uri))


@pytest.mark.parametrize(
    ("uri", "words"),
    [
        ("search://s", "no q="),
        ("search://s?n=2", "no q="),
        ("search://s?%71=x", "no q="),  # an encoded name is not the variable's
        ("search://s?q=a&q=b", "more than once"),
    ],
)
def test_a_missing_or_repeated_query_variable_is_invalid_params(
    session: StdioSession, uri: str, words: str
) -> None:
    message = refused(read(session, uri))
    assert message.startswith("q: ") and words in message, message


def test_a_resource_over_the_result_limit_is_refused(session: StdioSession) -> None:
    message = refused(read(session, "big://text"), -32603)
    assert "over the server's limit of 100000" in message and "--max-result-bytes" in message
    assert read(session, "ok://text")["result"]["contents"][0]["text"] == "fine"


# Real HTTP


@contextmanager
def http_catalog(args: Sequence[str] = ()) -> Iterator[HttpServer]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--transport", "http", "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **ENV},
    )
    with serving(process, port) as server:
        yield server


def _session(server: HttpServer) -> str:
    answer = server.open_session()
    assert answer.status == 200, answer
    return answer.headers["mcp-session-id"]


def _rpc(server: HttpServer, session: str, method: str, params: dict[str, Any]) -> Any:
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    answer = server.post(message, session=session)
    assert answer.status == 200, (answer.status, answer.body[:200])
    return answer.json()


def _held(server: HttpServer) -> int:
    session = _session(server)
    try:
        answer = _rpc(server, session, "resources/read", {"uri": "debug://subscriptions"})
        return int(answer["result"]["contents"][0]["text"])
    finally:
        server.request("DELETE", headers={"mcp-session-id": session})


def _subscribed_sessions(server: HttpServer, count: int) -> list[str]:
    sessions = [_session(server) for _ in range(count)]
    for session in sessions:
        answer = _rpc(server, session, "resources/subscribe", {"uri": "watch://a"})
        assert "result" in answer, answer
    return sessions


def _settles_at(server: HttpServer, expected: int, within: float = 20) -> int:
    """The registry's size once it reaches `expected`, or what it was at the deadline."""
    deadline = time.monotonic() + within
    while (held := _held(server)) != expected and time.monotonic() < deadline:
        time.sleep(0.2)
    return held


def test_deleted_sessions_free_their_subscriptions() -> None:
    with http_catalog() as server:
        sessions = _subscribed_sessions(server, 30)
        assert _held(server) == 30
        for session in sessions:
            assert server.request("DELETE", headers={"mcp-session-id": session}).status == 200
        assert _settles_at(server, 0) == 0


def test_expired_sessions_free_their_subscriptions() -> None:
    with http_catalog(["--session-idle-timeout", "1"]) as server:
        _subscribed_sessions(server, 10)
        assert _settles_at(server, 0) == 0


def test_hostile_templates_stall_no_one() -> None:
    """Each read below took a backtracking matcher from seconds to minutes, all of it on the
    event loop; the health check and another client's read must still answer within the
    Dockerfile's health-check timeout."""
    hostile = [
        "files://" + "a." * 16_000 + "/",
        "tree://" + "a/" * 1_500 + "?",
        "docs://" + "a/" * 32_700 + "?",
    ]
    with http_catalog() as server:
        answers: list[Any] = []

        def attack(uri: str) -> None:
            session = _session(server)
            answers.append(_rpc(server, session, "resources/read", {"uri": uri}))

        attackers = [threading.Thread(target=attack, args=(uri,)) for uri in hostile]
        for attacker in attackers:
            attacker.start()
        time.sleep(0.5)
        assert server.request("GET", "/healthz", timeout=5).status == 200
        session = _session(server)
        answer = _rpc(server, session, "resources/read", {"uri": "notes://inbox/5"})
        assert given(answer)["id"] == [5, "int"]
        for attacker in attackers:
            attacker.join(timeout=30)
        assert len(answers) == len(hostile)
        assert all(a["error"]["code"] == -32002 for a in answers), answers


@pytest.mark.parametrize(
    ("method", "params"),
    [("resources/read", {"uri": "slow://sync"}), ("prompts/get", {"name": "slow"})],
)
def test_a_blocking_sync_handler_stalls_no_one(method: str, params: dict[str, Any]) -> None:
    """A plain `def` handler may block: it runs on a worker thread, under the timeout."""
    with http_catalog(["--timeout", "3"]) as server:
        answers: list[Any] = []

        def slow_call() -> None:
            session = _session(server)
            answers.append(_rpc(server, session, method, params))

        caller = threading.Thread(target=slow_call)
        caller.start()
        time.sleep(0.5)
        assert server.request("GET", "/healthz", timeout=5).status == 200
        session = _session(server)
        answer = _rpc(server, session, "resources/read", {"uri": "notes://inbox/5"})
        assert given(answer)["id"] == [5, "int"]
        caller.join(timeout=30)
        message = refused(answers[0], -32603)
        assert "timeout (3.0 s)" in message, message


def test_a_parameter_pattern_that_runs_out_of_time_refuses(session: StdioSession) -> None:
    message = refused(read(session, "word://" + "a" * 40 + "b"))
    assert message.startswith("w: ") and "took too long" in message
    assert given(read(session, "word://aaaa")) == {"w": ["aaaa", "str"]}
