"""The runtime's server over a real stdio pipe: raw JSON-RPC lines in, raw answers out."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from mcp.types import INVALID_REQUEST, PARSE_ERROR
from pydantic import BaseModel, ValidationError

from mcpgen.runtime.stdio.line_errors import error_for
from tests.support.runtime import SERVERS
from tests.support.runtime.stdio_session import Session
from tests.support.runtime.tiny_tools import ECHO, TOOLS

SERVER = SERVERS / "tiny_server.py"
ARABIC_INDIC_ONE = "\u0661"  # a digit to Python's `\d`, not to ECMA-262's


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    with Session.open([sys.executable, str(SERVER)]) as opened:
        yield opened


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
