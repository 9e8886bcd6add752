"""Credentials from the environment or the caller, and the retry timing (computed, not slept)."""

from __future__ import annotations

import email.utils

import pytest

from mcpgen.runtime.upstream.auth import Credentials, bearer_token, credentials
from mcpgen.runtime.upstream.binding import Auth
from mcpgen.runtime.upstream.retry import (
    BACKOFF_CAP,
    MAX_RETRY_AFTER,
    backoff,
    retry_after_seconds,
    retry_delay,
)

ENV = {"TOKEN": "s3cr3t-token", "USER": "ann", "PASS": "pa ss", "KEY": "k/y&1"}


@pytest.mark.parametrize(
    ("plain", "expected"),
    [
        ({"bearer_env": "TOKEN"}, Credentials((("Authorization", "Bearer s3cr3t-token"),))),
        ({"header": "X-Api-Key", "env": "TOKEN"}, Credentials((("X-Api-Key", "s3cr3t-token"),))),
        ({"query": "api key", "env": "KEY"}, Credentials(query="api%20key=k%2Fy%261")),
        ({"basic_env": ["USER", "PASS"]}, Credentials((("Authorization", "Basic YW5uOnBhIHNz"),))),
        ({"bearer_env": "UNSET"}, Credentials()),
        ({"basic_env": ["UNSET", "UNSET2"]}, Credentials()),
        (None, Credentials()),
    ],
)
def test_credentials_from_the_environment(plain: object, expected: Credentials) -> None:
    found = credentials(Auth.from_plain(plain), ENV)  # type: ignore[arg-type]
    assert (found.headers, found.query) == (expected.headers, expected.query)


def test_every_credential_value_is_a_secret() -> None:
    assert credentials(Auth.from_plain({"bearer_env": "TOKEN"}), ENV).secrets == ("s3cr3t-token",)
    query = credentials(Auth.from_plain({"query": "k", "env": "KEY"}), ENV)
    assert set(query.secrets) == {"k/y&1", "k%2Fy%261"}
    basic = credentials(Auth.from_plain({"basic_env": ["USER", "PASS"]}), ENV)
    assert set(basic.secrets) == {"pa ss", "YW5uOnBhIHNz"}


def test_passthrough_forwards_the_callers_bearer_token_only() -> None:
    auth = Auth.from_plain({"passthrough": True})
    forwarded = credentials(auth, ENV, "Bearer caller-token")
    assert forwarded.headers == (("Authorization", "Bearer caller-token"),)
    assert forwarded.secrets == ("caller-token",)
    assert credentials(auth, ENV, None) == Credentials()  # stdio: no request headers
    assert credentials(auth, ENV, "Basic YWI6Y2Q=") == Credentials()


@pytest.mark.parametrize(
    ("header", "token"),
    [("Bearer abc", "abc"), ("bearer  abc ", "abc"), ("Bearer", None), ("Token abc", None)],
)
def test_bearer_token(header: str, token: str | None) -> None:
    assert bearer_token(header) == token


def test_retry_after_in_seconds_or_as_an_http_date() -> None:
    now = 1_800_000_000.0
    assert retry_after_seconds("7", now) == 7.0
    date = email.utils.formatdate(now + 12, usegmt=True)
    assert retry_after_seconds(date, now) == pytest.approx(12.0)
    assert retry_after_seconds(email.utils.formatdate(now - 50, usegmt=True), now) == 0.0
    assert retry_after_seconds("soon", now) is None
    assert retry_after_seconds(None, now) is None


def test_backoff_doubles_with_jitter_up_to_a_cap() -> None:
    assert [backoff(n, lambda: 0.0) for n in range(3)] == [0.25, 0.5, 1.0]
    assert [backoff(n, lambda: 1.0) for n in range(3)] == [0.5, 1.0, 2.0]
    assert backoff(20, lambda: 1.0) == BACKOFF_CAP


def test_retry_after_wins_over_backoff_and_is_capped() -> None:
    assert retry_delay(0, 3.0, lambda: 1.0) == 3.0
    assert retry_delay(0, MAX_RETRY_AFTER + 1, lambda: 1.0) is None
    assert retry_delay(1, None, lambda: 0.0) == 0.5
