"""Nothing a handler raises or returns takes the server down or leaks a secret (real stdio)."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from mcpgen.runtime.core.errors import Redactor, shortened
from tests.support.runtime import SERVERS
from tests.support.runtime.hostile_tools import SECRET_ENV
from tests.support.runtime.wire import StdioSession, stdio_session, text

SERVER = SERVERS / "hostile_server.py"
SECRET = "s3cret-Pa55word"


@pytest.fixture(scope="module")
def session() -> Iterator[StdioSession]:
    with stdio_session(SERVER, env={SECRET_ENV: SECRET}) as opened:
        yield opened


def still_serving(session: StdioSession) -> None:
    assert session.call("raise_it", {"what": "datetime"})["isError"] is False


@pytest.mark.parametrize("what", ["system-exit", "keyboard-interrupt", "generator-exit"])
def test_base_exceptions_become_error_results(session: StdioSession, what: str) -> None:
    result = session.call("raise_it", {"what": what})
    assert result["isError"] is True
    assert re.fullmatch(r"Tool 'raise_it' failed: \w+ \(error id [0-9a-f]{12}\)", text(result))
    still_serving(session)


@pytest.mark.parametrize("name", ["cancel_itself", "exit_async"])
def test_async_handlers_raising_cancel_or_exit_are_error_results(
    session: StdioSession, name: str
) -> None:
    result = session.call(name, {})
    assert result["isError"] is True, result
    still_serving(session)


@pytest.mark.parametrize("args", [[], ["--debug"]])
@pytest.mark.parametrize("what", ["unreadable", "unreadable-tool-error"])
def test_an_exception_whose_message_cannot_be_read_is_an_error_result(
    args: list[str], what: str
) -> None:
    with stdio_session(SERVER, args, env={SECRET_ENV: SECRET}) as opened:
        result = opened.call("raise_it", {"what": what})
        assert result["isError"] is True, result
        if what == "unreadable-tool-error" or args:
            assert "message could not be read" in text(result)
        still_serving(opened)


def test_tool_error_message_is_the_error_text(session: StdioSession) -> None:
    result = session.call("raise_it", {"what": "tool-error"})
    assert result["isError"] is True and text(result) == "the city is unknown"


def test_an_exception_carrying_a_secret_reaches_the_client_without_it(
    session: StdioSession,
) -> None:
    result = session.call("raise_it", {"what": "leak"})
    assert SECRET not in json.dumps(result) and "RuntimeError (error id" in text(result)
    returned = session.call("raise_it", {"what": "secret"})
    assert SECRET not in json.dumps(returned) and "[redacted]" in text(returned)


@pytest.mark.parametrize(
    ("what", "expected"),
    [
        ("datetime", '{"at":"2024-05-01T00:00:00Z"}'),
        ("set", '{"tags":["b"]}'),
        ("bytes", '{"raw":"_wA="}'),
        ("surrogate", '{"name":"caf\\\\udce9.txt"}'),
    ],
)
def test_values_with_a_json_form_are_converted(
    session: StdioSession, what: str, expected: str
) -> None:
    result = session.call("raise_it", {"what": what})
    assert result["isError"] is False and text(result) == expected


@pytest.mark.parametrize("what", ["nan", "object"])
def test_values_with_no_json_form_are_refused(session: StdioSession, what: str) -> None:
    result = session.call("raise_it", {"what": what})
    assert result["isError"] is True and "no JSON form" in text(result)
    still_serving(session)


@pytest.mark.parametrize(
    ("what", "reason"),
    [
        ("endless", "iterator"),
        ("endless-inside", "iterator"),
        ("huge-int", "integer of 16610 bits is too large"),
        ("circular", "holds itself"),
    ],
)
def test_values_that_never_end_or_have_no_text_are_refused(
    session: StdioSession, what: str, reason: str
) -> None:
    result = session.call("raise_it", {"what": what})
    assert result["isError"] is True and "no JSON form" in text(result)
    assert reason in text(result)
    still_serving(session)


def test_a_result_slow_to_convert_times_out_off_the_event_loop() -> None:
    """A sync handler's result is converted on its worker thread, within its timeout: a
    conversion that takes a minute holds neither the answer nor other calls."""
    with stdio_session(SERVER, env={SECRET_ENV: SECRET}) as slow:
        slow.send(_call(1, "slow_result", {"seconds": 60}))
        slow.send(_call(2, "raise_it", {"what": "datetime"}))
        answers: dict[int, dict[str, Any]] = {}
        reader = threading.Thread(
            target=lambda: answers.update((a["id"], a) for a in (slow.read(), slow.read())),
            daemon=True,
        )
        reader.start()
        reader.join(timeout=20)  # far below the minute a conversion on the event loop takes
        slow.process.kill()
    assert "timed out after 0.5 s" in text(answers[1]["result"])
    assert answers[2]["result"]["isError"] is False


def test_an_async_handler_that_ignores_its_cancellation_is_answered_at_its_timeout() -> None:
    with stdio_session(SERVER, env={SECRET_ENV: SECRET}) as stubborn:
        stubborn.send(_call(1, "stubborn_async", {"seconds": 60}))
        stubborn.send(_call(2, "raise_it", {"what": "datetime"}))
        answers: dict[int, dict[str, Any]] = {}
        reader = threading.Thread(
            target=lambda: answers.update((a["id"], a) for a in (stubborn.read(), stubborn.read())),
            daemon=True,
        )
        reader.start()
        reader.join(timeout=20)  # far below the minute the handler goes on
        stubborn.process.kill()
    assert "timed out after 0.5 s" in text(answers[1]["result"])
    assert answers[2]["result"]["isError"] is False


def _call(request_id: int, name: str, arguments: dict[str, object]) -> dict[str, object]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def test_results_over_the_size_cap_are_refused() -> None:
    # Without the character limit, which would cut the text first.
    with stdio_session(SERVER, ["--max-result-chars", "0"], env={SECRET_ENV: SECRET}) as opened:
        result = opened.call("raise_it", {"what": "big"})
    assert result["isError"] is True and "--max-result-bytes" in text(result)


def test_a_text_result_over_the_character_limit_is_cut_with_a_note(session: StdioSession) -> None:
    result = session.call("raise_it", {"what": "big"})
    assert result["isError"] is False
    assert text(result).startswith("x" * 100_000 + "\n\n[truncated: ")
    assert "limit of 100000 (--max-result-chars)" in text(result)


def test_invalid_arguments_quote_only_a_prefix_of_the_value(session: StdioSession) -> None:
    result = session.call("long_text", {"text": "y" * 1_000_000})
    assert result["isError"] is True
    assert len(text(result)) < 500 and text(result).endswith("is too long")


def test_debug_sends_full_messages_still_redacted() -> None:
    with stdio_session(SERVER, ["--debug"], env={SECRET_ENV: SECRET}) as debug:
        result = debug.call("raise_it", {"what": "leak"})
    assert "could not connect to postgres://app:[redacted]@db/x" in text(result)


def test_the_log_names_the_error_id_without_the_secret() -> None:
    with stdio_session(SERVER, env={SECRET_ENV: SECRET}) as logged:
        error_id = text(logged.call("raise_it", {"what": "leak"})).split()[-1].rstrip(")")
    log = logged.stderr()
    assert f"error id {error_id}" in log and "Traceback" in log
    assert "postgres://app:[redacted]@db/x" in log and SECRET not in log


def test_redactor_replaces_longer_secrets_first() -> None:
    redactor = Redactor(("abcd", "abcdef")[::-1])
    assert redactor.value({"k": ["xabcdefx", "abcd"]}) == {"k": ["x[redacted]x", "[redacted]"]}


def test_shortened_keeps_head_and_tail() -> None:
    line = "$.text: '" + "y" * 1000 + "' is too long"
    short = shortened(line, 90)
    assert short.startswith("$.text: 'yyy") and short.endswith("is too long") and len(short) < 140
