"""Resource and prompt handlers that raise, served over real stdio: each failure is an error
answer without the secret the exception carried, and the server keeps serving."""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterator

import pytest

from tests.support.runtime import SERVERS
from tests.support.runtime.catalog_server import ENDING_HANDLERS, KIND_NAMES, SECRET_ENV
from tests.support.runtime.wire import StdioSession, stdio_session

SERVER = SERVERS / "catalog_server.py"
SECRET = "s3cret-Pa55word"


@pytest.fixture(scope="module")
def session() -> Iterator[StdioSession]:
    with stdio_session(SERVER, env={SECRET_ENV: SECRET}) as opened:
        yield opened


def _still_serving(session: StdioSession) -> None:
    answer = session.request("resources/read", {"uri": "ok://text"})
    assert answer["result"]["contents"][0]["text"] == "fine"


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_a_failing_resource_handler_is_an_error_answer(session: StdioSession, kind: str) -> None:
    answer = session.request("resources/read", {"uri": f"bad://{kind}"})
    assert "error" in answer and SECRET not in json.dumps(answer), answer
    _still_serving(session)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_a_failing_prompt_handler_is_an_error_answer(session: StdioSession, kind: str) -> None:
    answer = session.request("prompts/get", {"name": kind, "arguments": {}})
    assert "error" in answer and SECRET not in json.dumps(answer), answer
    _still_serving(session)


@pytest.mark.parametrize("name", sorted(ENDING_HANDLERS))
@pytest.mark.parametrize("surface", ["resource", "prompt"])
def test_a_handler_cannot_end_stop_or_deafen_the_server(surface: str, name: str) -> None:
    # A server of its own: a guard that failed would end the module's shared one.
    with stdio_session(SERVER, env={SECRET_ENV: SECRET}) as own:
        if surface == "resource":
            answer = own.request("resources/read", {"uri": f"end://{name}"})
        else:
            answer = own.request("prompts/get", {"name": f"end-{name}", "arguments": {}})
        assert "error" in answer, answer
        _still_serving(own)
        own.process.send_signal(signal.SIGTERM)
        assert own.process.wait(timeout=30) == 0


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("resources/read", {"uri": "bad://tool-error"}),
        ("prompts/get", {"name": "tool-error", "arguments": {}}),
    ],
)
def test_a_tool_error_keeps_its_message_without_the_secret(
    session: StdioSession, method: str, params: dict[str, object]
) -> None:
    message = session.request(method, params)["error"]["message"]
    assert "the archive refused key" in message and "try later" in message
    assert SECRET not in message


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("resources/read", {"uri": "odd://strings"}),
        ("resources/read", {"uri": "odd://nan"}),
        ("resources/read", {"uri": "odd://generator"}),
        ("prompts/get", {"name": "odd-generator"}),
    ],
)
def test_a_value_that_cannot_be_sent_is_an_error_answer(
    session: StdioSession, method: str, params: dict[str, object]
) -> None:
    answer = session.request(method, params)
    assert answer.get("error", {}).get("code") == -32603, answer
    assert (
        "the handler" in answer["error"]["message"]
        or "cannot be sent" in answer["error"]["message"]
    )
    _still_serving(session)


@pytest.mark.parametrize(
    ("method", "params"),
    [("resources/read", {"uri": "odd://secret"}), ("prompts/get", {"name": "odd-secret"})],
)
def test_contents_lose_the_secret_as_tool_results_do(
    session: StdioSession, method: str, params: dict[str, object]
) -> None:
    answer = session.request(method, params)
    assert "result" in answer and SECRET not in json.dumps(answer), answer
    assert "key=" in json.dumps(answer)


@pytest.mark.parametrize(
    ("method", "params"),
    [("resources/read", {"uri": "odd://surrogate"}), ("prompts/get", {"name": "odd-surrogate"})],
)
def test_text_that_is_not_utf8_goes_out_escaped(
    session: StdioSession, method: str, params: dict[str, object]
) -> None:
    assert session.process.stdout is not None
    session.send({"jsonrpc": "2.0", "id": 9, "method": method, "params": params})
    line = session.process.stdout.readline()
    # The text holds the escape as characters (the JSON says caf\\udce9), not a surrogate.
    assert "caf\\\\udce9" in line.decode("utf-8"), line
    _still_serving(session)


@pytest.mark.parametrize("method", ["resources/list", "resources/templates/list", "prompts/list"])
@pytest.mark.parametrize(
    "cursor",
    ["\u00b2", "\u0661", "\uff11", "9" * 5_000, "0" * 5_000 + "1", "1_0", " 1", "+1", "-1", ""],
    ids=["superscript", "arabic-indic", "fullwidth", "huge", "zeros", "underscore", "space", "plus",
         "minus", "empty"],
)  # fmt: skip
def test_a_cursor_it_never_gave_is_invalid_params(
    session: StdioSession, method: str, cursor: str
) -> None:
    """Cursors are the decimal offsets the server hands out: anything else is the client's
    mistake (not code 0 with int()'s own words, not a page served from a look-alike digit)."""
    answer = session.request(method, {"cursor": cursor})
    assert "error" in answer, answer
    assert answer["error"]["code"] == -32602 and "invalid cursor" in answer["error"]["message"]
    assert len(json.dumps(answer)) < 500, answer


@pytest.mark.parametrize(
    ("method", "params", "words"),
    [
        (
            "completion/complete",
            {
                "ref": {"type": "ref/resource", "uri": "count://{c}"},
                "argument": {"name": "c", "value": "n"},
            },
            "returned generator, not a list",
        ),
        ("prompts/get", {"name": "endless"}, "returned generator, which is not a prompt"),
    ],
)
def test_an_endless_generator_is_refused_and_stalls_no_one(
    method: str, params: dict[str, object], words: str
) -> None:
    """Iterators are refused, as a tool's are: drawing an endless one to a list on the event
    loop would hold every client, forever."""
    with stdio_session(SERVER, env={SECRET_ENV: SECRET}) as own:
        answered: list[dict[str, object]] = []
        asker = threading.Thread(
            target=lambda: answered.append(own.request(method, params)), daemon=True
        )
        asker.start()
        asker.join(timeout=30)
        assert answered, "no answer in 30 s: the server is drawing the generator"
        error = answered[0]["error"]
        assert isinstance(error, dict) and error["code"] == -32603, answered
        assert words in str(error["message"]), error
        _still_serving(own)
