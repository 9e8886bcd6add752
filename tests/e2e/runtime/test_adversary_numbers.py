"""NaN, Infinity and numbers past the double range on the wire of a real server (stdio, HTTP,
stateless HTTP): Python's and pydantic's JSON parsers read them, JSON has none of them, and a
NaN passes every bound. A call carrying one is refused as invalid arguments (an error result
naming where), never handed to the handler."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.support.runtime import SERVERS
from tests.support.runtime.http_wire import ACCEPT, HttpServer, free_port, serving
from tests.support.runtime.wire import StdioSession, stdio_session

SERVER = SERVERS / "number_server.py"
# Raw `arguments` text → where the refusal must point.
NON_FINITE = [
    (b'{"x":NaN}', "$.x: nan"),
    (b'{"x":Infinity}', "$.x: inf"),
    (b'{"x":-Infinity}', "$.x: -inf"),
    (b'{"x":1e400}', "$.x: inf"),
    (b'{"x":-1e400}', "$.x: -inf"),
    (b'{"n":-1e400}', "$.n: -inf"),
    (b'{"free":NaN}', "$.free: nan"),
    (b'{"free":{"a":[1,-Infinity]}}', "$.free.a[1]: -inf"),
    (b'{"x":5,"x":NaN}', "$.x: nan"),  # a duplicate key: the last one is the value
]
FINITE = [(b'{"x":-0}', "'x': 0.0"), (b'{"n":1e1}', "'n': 10"), (b'{"free":1e308}', "1e+308")]


def _call(number: int, arguments: bytes) -> bytes:
    return (
        b'{"jsonrpc":"2.0","id":%d,"method":"tools/call",'
        b'"params":{"name":"measure","arguments":%s}}' % (number, arguments)
    )


def _text(answer: dict[str, Any]) -> tuple[bool, str]:
    assert "result" in answer, answer
    result = answer["result"]
    return result["isError"], result["content"][0]["text"]


@pytest.fixture(scope="module")
def stdio() -> Iterator[StdioSession]:
    with stdio_session(SERVER) as opened:
        yield opened


def _over_stdio(session: StdioSession, arguments: bytes) -> dict[str, Any]:
    assert session.process.stdin is not None
    session.process.stdin.write(_call(7, arguments) + b"\n")
    session.process.stdin.flush()
    while True:
        answer = session.read()
        if answer.get("id") == 7:
            return answer


@contextmanager
def _http(*flags: str) -> Iterator[tuple[HttpServer, str | None]]:
    port = free_port()
    command = [sys.executable, str(SERVER), "--transport", "http", "--port", str(port), *flags]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with serving(process, port) as server:
        session = None if flags else server.open_session().headers["mcp-session-id"]
        yield server, session


def _over_http(server: HttpServer, session: str | None, arguments: bytes) -> dict[str, Any]:
    headers = {"content-type": "application/json", "accept": ACCEPT}
    if session is not None:
        headers["mcp-session-id"] = session
    answer = server.request("POST", body=_call(7, arguments), headers=headers)
    assert answer.status == 200, (answer.status, answer.body[:200])
    found: dict[str, Any] = answer.json()
    return found


def _refused_where(answer: dict[str, Any], where: str) -> None:
    is_error, text = _text(answer)
    assert is_error, f"the handler was given {text}"
    assert text.startswith("Invalid arguments for tool 'measure'"), text
    assert f"- {where} is not a JSON number" in text, text


@pytest.mark.parametrize(("arguments", "where"), NON_FINITE)
def test_a_non_finite_number_never_reaches_the_handler_over_stdio(
    stdio: StdioSession, arguments: bytes, where: str
) -> None:
    _refused_where(_over_stdio(stdio, arguments), where)


@pytest.mark.parametrize("flags", [(), ("--stateless",)], ids=["stateful", "stateless"])
def test_a_non_finite_number_never_reaches_the_handler_over_http(flags: tuple[str, ...]) -> None:
    with _http(*flags) as (server, session):
        for arguments, where in NON_FINITE:
            _refused_where(_over_http(server, session, arguments), where)
        for arguments, given in FINITE:
            is_error, text = _text(_over_http(server, session, arguments))
            assert not is_error and given in text, text


@pytest.mark.parametrize(("arguments", "given"), FINITE)
def test_finite_numbers_still_reach_the_handler(
    stdio: StdioSession, arguments: bytes, given: str
) -> None:
    is_error, text = _text(_over_stdio(stdio, arguments))
    assert not is_error and given in text, text
