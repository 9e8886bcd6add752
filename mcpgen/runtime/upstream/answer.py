"""An upstream answer → what the tool returns to the dispatcher.

A 2xx JSON answer is the tool's structured result (`{"result": value}` when the binding wraps
a non-object answer); a 2xx answer without a body (a 204) is a success whose one text block
says so, with no structured content; any other 2xx answer is its text. A non-2xx answer is a
tool error naming the method, the path template, the status and a bounded excerpt of the
body, with every secret value of the call redacted.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from mcp.types import CallToolResult, TextContent

from ..core.errors import Redactor
from ..core.results import error_result
from ..core.tool_table import to_json
from ..validation.schema_check import SchemaCheck
from .binding import Binding

logger = logging.getLogger(__name__)

EXCERPT_LIMIT = 500  # characters of a failed answer's body the error quotes
MAX_PROBLEMS_LOGGED = 10


@dataclass(frozen=True)
class Received:
    """An upstream answer, its body read up to the size limit."""

    status: int
    reason: str
    content_type: str
    body: bytes
    encoding: str = "utf-8"
    retry_after: str | None = None
    too_large: bool = False

    @property
    def ok(self) -> bool:
        """True for a 2xx status."""
        return 200 <= self.status < 300

    def text(self) -> str:
        """The body as text, in its declared charset (UTF-8 for an unknown one), with
        undecodable bytes replaced rather than refused."""
        try:
            return self.body.decode(self.encoding or "utf-8", errors="replace")
        except LookupError:  # a charset Python does not know
            return self.body.decode("utf-8", errors="replace")


def is_json(content_type: str) -> bool:
    """True for `application/json` and any `+json` media type, parameters aside."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


def no_content(received: Received) -> CallToolResult:
    """The result of a success without a body: a text block naming the status, nothing
    structured (the tool declares no output for it)."""
    text = f"Succeeded with no content (HTTP {received.status})"
    return CallToolResult(content=[TextContent(type="text", text=text)])


def excerpt(text: str, limit: int = EXCERPT_LIMIT) -> str:
    """The start of a body on one line, cut to `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else f"{flat[:limit]}… ({len(flat) - limit} more characters)"


def failure(binding: Binding, received: Received, redactor: Redactor, note: str = "") -> str:
    """The error text of a non-2xx answer."""
    status = f"HTTP {received.status}" + (f" {received.reason}" if received.reason else "")
    if received.retry_after and not note:
        note = f" (Retry-After: {excerpt(received.retry_after, 40)})"
    message = f"{binding.method} {binding.path} failed: {status}{note}"
    body = excerpt(received.text()) if received.body else ""
    return redactor.text(f"{message}: {body}" if body else message)


def not_json(binding: Binding, received: Received) -> str:
    """The error text of a success that is not the JSON the tool's output schema describes."""
    what = received.content_type or "no content type"
    body = f": {excerpt(received.text())}" if received.body.strip() else " and no content"
    return (
        f"{binding.method} {binding.path}: the API answered HTTP {received.status} with "
        f"{what}{body}, where the tool's output schema describes a JSON result"
    )


class Answers:
    """Turns one tool's upstream answers into its results; logs an answer that breaks the
    response schema once (output_validation `warn`). `structured`: the tool publishes an
    output schema, so a success must be JSON."""

    def __init__(self, tool: str, binding: Binding, structured: bool = False) -> None:
        self._tool = tool
        self._binding = binding
        self._structured = structured
        self._check: SchemaCheck | None = None
        self._warned = False

    def result(self, received: Received, redactor: Redactor) -> Any:
        """What the handler returns for `received`: a plain value the dispatcher checks
        against the output schema (strict), or a finished `CallToolResult`."""
        binding = self._binding
        if not received.ok:
            return error_result(failure(binding, received, redactor))
        if received.too_large:
            return error_result(
                f"{binding.method} {binding.path}: the answer is larger than "
                f"{len(received.body)} bytes, the most a call reads"
            )
        return self._success(received, redactor)

    def _success(self, received: Received, redactor: Redactor) -> Any:
        binding = self._binding
        empty = not received.body.strip()
        try:
            value = (
                None if empty or not is_json(received.content_type) else json.loads(received.body)
            )
        except ValueError:
            value = None
        if value is None and self._structured:
            return error_result(redactor.text(not_json(binding, received)))
        if empty:
            return no_content(received)
        if value is None:
            return CallToolResult(content=[TextContent(type="text", text=received.text())])
        if binding.wrap is not None:
            value = {binding.wrap: value}
        if binding.output_validation == "warn":
            self._warn_if_mismatched(value)  # the response schema is the result's, wrapped
        if self._structured and isinstance(value, dict):
            # Plain JSON already (parsed just now): finished as it is, not converted again;
            # the dispatcher checks it against the output schema and writes its text.
            return CallToolResult(content=[], structured_content=value)
        if binding.output_validation == "strict":
            return value
        structured = value if isinstance(value, dict) else None
        return CallToolResult(
            content=[TextContent(type="text", text=to_json(value))], structured_content=structured
        )

    def _warn_if_mismatched(self, value: Any) -> None:
        schema = self._binding.response_schema
        if self._warned or schema is None:
            return
        if self._check is None:
            self._check = SchemaCheck(schema)
        problems = self._check.problems(value)
        if problems:
            self._warned = True  # once per tool: a server's log is not a per-call report
            shown = "\n".join(f"- {p}" for p in problems[:MAX_PROBLEMS_LOGGED])
            logger.warning(
                "tool %r: the API's answer does not match the response schema of %s %s "
                "(returned anyway; output_validation is warn; logged once):\n%s",
                self._tool,
                self._binding.method,
                self._binding.path,
                shown,
            )
