"""The pure parts of the call guards: rate-limit windows, the pass-through stub's detection,
request headers, the per-client key and secret header values in log lines."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

from mcpgen.runtime.core import request_secrets
from mcpgen.runtime.core.errors import RedactingFilter, Redactor
from mcpgen.runtime.dispatch.caller import Headers, client_key, request_bearer
from mcpgen.runtime.dispatch.middleware import CallGuards, is_pass_through
from mcpgen.runtime.dispatch.rate_limit import RateLimit, RateLimits, retry_message


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_client_gets_n_calls_per_window_and_others_count_apart() -> None:
    clock = Clock()
    limits = RateLimits([("t", RateLimit(2, 10.0))], clock=clock)
    assert [limits.wait("t", "a"), limits.wait("t", "a")] == [None, None]
    assert limits.wait("t", "a") == 10.0
    assert limits.wait("t", "b") is None  # another client
    assert limits.wait("other", "a") is None  # an unlimited tool
    clock.now += 4
    assert limits.wait("t", "a") == 6.0
    clock.now += 6  # the calls leave the window
    assert [limits.wait("t", "a"), limits.wait("t", "a"), limits.wait("t", "a")] == [
        None,
        None,
        10.0,
    ]


def test_forgotten_windows_start_afresh() -> None:
    limits = RateLimits([("t", RateLimit(1, 60.0))], clock=Clock(), max_windows=2)
    for client in ("a", "b", "c"):
        assert limits.wait("t", client) is None
    assert limits.wait("t", "a") is None  # "a" was the least recently used, forgotten
    assert limits.wait("t", "c") is not None


def test_the_retry_message_rounds_up_to_whole_seconds() -> None:
    assert retry_message(59.2) == "rate limited; retry after 60 s"
    assert retry_message(0.01) == "rate limited; retry after 1 s"


async def stub(ctx: Any, tool: str, arguments: Any, call_next: Any) -> Any:
    """The generated stub, documented at length."""
    return await call_next(arguments)


async def changed(ctx: Any, tool: str, arguments: Any, call_next: Any) -> Any:
    return await call_next({**arguments, "x": 1})


async def renamed(c: Any, t: str, a: Any, n: Any) -> Any:
    return await n(a)


def test_only_the_unchanged_stub_is_skipped() -> None:
    assert is_pass_through(stub)
    assert not is_pass_through(changed)
    assert not is_pass_through(renamed)
    row = SimpleNamespace(name="t")
    assert CallGuards.of([row], stub) is None
    guards = CallGuards.of([row], changed)
    assert guards is not None and guards.hook is changed


def test_headers_are_read_in_any_case_and_print_secrets_redacted() -> None:
    headers = Headers(
        [("X-Api-Key", "sk-1234567"), ("Accept", "a"), ("accept", "b")], ["x-api-KEY"]
    )
    assert headers["x-api-key"] == headers["X-API-KEY"] == "sk-1234567"
    assert "ACCEPT" in headers and headers["accept"] == "a" and len(headers) == 2
    assert "sk-1234567" not in repr(headers) and "[redacted]" in str(headers)
    assert headers.secret_values() == ("sk-1234567",)


def request(headers: dict[str, str], user: Any = None, host: str | None = "10.0.0.7") -> Any:
    scope = {"user": user} if user is not None else {}
    client = None if host is None else SimpleNamespace(host=host)
    return SimpleNamespace(headers=Headers(headers.items()), scope=scope, client=client)


def test_the_client_key_is_the_subject_else_the_session_else_the_peer() -> None:
    user = SimpleNamespace(access_token=SimpleNamespace(subject="alice"))
    session = {"mcp-session-id": "s1"}
    assert client_key(request(session, user)) == "sub:alice"
    assert client_key(request(session)) == "session:s1"
    assert client_key(request({})) == "peer:10.0.0.7"
    assert client_key(None) == "stdio"


def test_the_bearer_token_is_read_from_the_request() -> None:
    assert request_bearer(request({"Authorization": "Bearer abc.def"})) == "abc.def"
    assert request_bearer(request({"Authorization": "Basic xyz"})) is None
    assert request_bearer(None) is None


def test_held_secret_values_are_redacted_from_log_lines() -> None:
    record = logging.LogRecord("x", logging.WARNING, "f", 1, "key %s", ("sk-abcdef",), None)
    context = __import__("contextvars").copy_context()

    def log_in_request() -> bool:
        request_secrets.hold(("sk-abcdef", "no"))  # too short to redact: kept
        return RedactingFilter(Redactor()).filter(record)

    assert context.run(log_in_request)
    assert record.msg == "key [redacted]"
    assert request_secrets.current() == ()  # held in that request's context only
