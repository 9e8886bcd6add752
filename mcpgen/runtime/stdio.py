"""Stdio transport details: answering lines that are not JSON-RPC messages."""

from __future__ import annotations

from types import TracebackType
from typing import Any, Self

import anyio
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError


class UnreadableLinesAnswered:
    """A read stream that answers stdio lines which are not JSON-RPC messages.

    The SDK's stdio transport hands such lines over as exceptions and the server drops them;
    JSON-RPC 2.0 asks for -32700 (not JSON) or -32600 (not a request), with a null id.
    """

    def __init__(self, inner: Any, write_stream: Any) -> None:
        self._inner = inner
        self._write_stream = write_stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)  # e.g. `last_context`, read by the server loop

    async def receive(self) -> SessionMessage:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item  # type: ignore[no-any-return]
            await self._write_stream.send(SessionMessage(error_for(item)))

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


def error_for(problem: Exception) -> JSONRPCError:
    """The JSON-RPC error for a line the transport could not read as a message."""
    not_json = isinstance(problem, ValidationError) and any(
        error["type"] == "json_invalid" for error in problem.errors()
    )
    error = (
        ErrorData(code=PARSE_ERROR, message="Parse error: the line is not valid JSON")
        if not_json
        else ErrorData(code=INVALID_REQUEST, message="Invalid Request: not a JSON-RPC 2.0 message")
    )
    return JSONRPCError(jsonrpc="2.0", id=None, error=error)
