"""The runtime's server over a real stdio pipe: raw JSON-RPC lines in, raw answers out."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp.types import INVALID_REQUEST, PARSE_ERROR
from pydantic import BaseModel, ValidationError

from mcpgen.runtime.stdio import error_for
from tests.unit.runtime.tiny_tools import ECHO, TOOLS

SERVER = Path(__file__).with_name("tiny_server.py")
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}

ARABIC_INDIC_ONE = "\u0661"  # a digit to Python's `\d`, not to ECMA-262's


class Session:
    def __init__(self, process: subprocess.Popen[str]) -> None:
        self._process = process

    def send(self, line: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def request(self, message: dict[str, Any] | str) -> dict[str, Any]:
        self.send(message if isinstance(message, str) else json.dumps(message))
        assert self._process.stdout is not None
        answer: dict[str, Any] = json.loads(self._process.stdout.readline())
        return answer


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    process = subprocess.Popen(
        [sys.executable, str(SERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
    )
    try:
        opened = Session(process)
        assert "result" in opened.request(INITIALIZE)
        opened.send(json.dumps(INITIALIZED))
        yield opened
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=20)


def test_tools_list_publishes_the_definitions_verbatim(session: Session) -> None:
    answer = session.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    tools = answer["result"]["tools"]
    assert tools == [spec.definition for spec in TOOLS]
    # Keys MCP does not define survive: the SDK's models would drop them.
    assert tools[0]["annotations"]["category"] == ECHO["annotations"]["category"]  # type: ignore[index]


def test_invalid_call_is_a_tool_result_never_a_protocol_error(session: Session) -> None:
    call = {"name": "tags", "arguments": {ARABIC_INDIC_ONE: "a"}}
    answer = session.request({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
    assert "error" not in answer and answer["result"]["isError"] is True
    assert f"'{ARABIC_INDIC_ONE}' was unexpected" in answer["result"]["content"][0]["text"]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("{not json", PARSE_ERROR),
        ('{"jsonrpc": "2.0", "id": 3}', INVALID_REQUEST),
        ("[]", INVALID_REQUEST),
    ],
)
def test_unreadable_lines_are_answered(session: Session, line: str, code: int) -> None:
    answer = session.request(line)
    assert answer == {"jsonrpc": "2.0", "id": None, "error": answer["error"]}
    assert answer["error"]["code"] == code
    # ... and the server keeps serving.
    assert "result" in session.request({"jsonrpc": "2.0", "id": 4, "method": "ping"})


class _Message(BaseModel):
    jsonrpc: str


@pytest.mark.parametrize(
    ("raw", "code"),
    [("{", PARSE_ERROR), ("{}", INVALID_REQUEST), ('{"jsonrpc": 2}', INVALID_REQUEST)],
)
def test_error_for(raw: str, code: int) -> None:
    with pytest.raises(ValidationError) as raised:
        _Message.model_validate_json(raw)
    error = error_for(raised.value)
    assert error.id is None and error.error.code == code


def test_error_for_anything_else_is_invalid_request() -> None:
    assert error_for(ValueError("boom")).error.code == INVALID_REQUEST
