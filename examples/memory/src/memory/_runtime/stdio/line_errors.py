# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Stdio details: the answer to a line that is not a JSON-RPC message."""

from __future__ import annotations

from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, RequestId
from pydantic import ValidationError


def error_for(problem: Exception, request_id: RequestId | None = None) -> JSONRPCError:
    """The JSON-RPC error for a line the transport could not read as a message (`request_id`:
    its id, as far as it could be told)."""
    not_json = isinstance(problem, ValidationError) and any(
        error["type"] == "json_invalid" for error in problem.errors()
    )
    error = (
        ErrorData(code=PARSE_ERROR, message="Parse error: the line is not valid JSON")
        if not_json
        else ErrorData(code=INVALID_REQUEST, message="Invalid Request: not a JSON-RPC 2.0 message")
    )
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=error)


def too_long(limit: int, request_id: RequestId | None = None) -> JSONRPCError:
    """The answer to a line longer than `limit` bytes, which is dropped unread (`request_id`:
    its id, as far as its first and last bytes show it)."""
    message = f"Invalid Request: the message is longer than {limit} bytes"
    return JSONRPCError(
        jsonrpc="2.0", id=request_id, error=ErrorData(code=INVALID_REQUEST, message=message)
    )


def unusable_id() -> JSONRPCError:
    """The answer to a request whose id is neither a string nor an integer."""
    message = "Invalid Request: the id must be a string or an integer"
    return JSONRPCError(
        jsonrpc="2.0", id=None, error=ErrorData(code=INVALID_REQUEST, message=message)
    )
