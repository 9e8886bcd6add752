"""Every tool of an imported project called over stdio with the official SDK client, each call
judged twice: by prism (the request the server sent upstream: a 2xx, no violation of the
spec) and by the client (a non-error result whose structuredContent matches the tool's
outputSchema; the SDK's `ClientSession` checks it and raises when it does not).

The figures per spec (tools, calls, 2xx, isError, valid output) are kept for the summary."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from tests.support.prism import Exchange, PrismMock
from tests.support.schema_instances import NoInstance, valid_instance

EXCERPT = 300


@dataclass
class CallRecord:
    """One tool call and how both judges saw it."""

    tool: str
    arguments: Any
    exchanges: list[Exchange] = field(default_factory=list)
    is_error: bool = False
    output_problem: str = ""  # why the result does not match the outputSchema; empty if it does
    text: str = ""  # the start of the result's text content
    since: int = 0  # where prism's log stood when the call was made

    @property
    def upstream_2xx(self) -> bool:
        return len(self.exchanges) == 1 and self.exchanges[0].ok

    @property
    def mock_fault(self) -> bool:
        """Prism could not draw a valid answer from the spec for a valid request."""
        return len(self.exchanges) == 1 and self.exchanges[0].mock_fault

    @property
    def passed(self) -> bool:
        return self.upstream_2xx and not self.is_error and not self.output_problem

    @property
    def judged(self) -> bool:
        """The call counts for or against the server (prism's own faults do not)."""
        return not self.mock_fault

    def describe(self) -> str:
        upstream = "; ".join(e.describe() for e in self.exchanges) or "no request reached prism"
        verdict = "isError " if self.is_error else ""
        verdict += f"output: {self.output_problem} " if self.output_problem else ""
        return (
            f"{self.tool}({json.dumps(self.arguments)[:200]}): {upstream}; {verdict}"
            f"{self.text[:EXCERPT]!r}"
        )


@dataclass
class SpecFigures:
    """What one spec's run amounted to."""

    spec: str
    openapi: str
    operations: int  # in the whole document
    tools: int  # imported and listed
    records: list[CallRecord] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "openapi": self.openapi,
            "operations": self.operations,
            "tools": self.tools,
            "calls": len(self.records),
            "2xx": sum(r.upstream_2xx for r in self.records),
            "isError": sum(r.is_error for r in self.records),
            "valid output": sum(not r.is_error and not r.output_problem for r in self.records),
            "passed": sum(r.passed for r in self.records),
            "mock faults": sum(r.mock_fault for r in self.records),
        }

    def failures(self) -> list[str]:
        """The calls that failed for a reason of the server's (or the import's)."""
        return [r.describe() for r in self.records if r.judged and not r.passed]

    def mock_faults(self) -> list[str]:
        return [r.describe() for r in self.records if r.mock_fault]


def _text(result: CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, TextContent))


def _own_check(schema: dict[str, Any] | None, result: CallToolResult) -> str:
    """The outputSchema check again with jsonschema, for a message naming the field."""
    if schema is None:
        return ""
    if result.structured_content is None:
        return "no structuredContent although the tool advertises an outputSchema"
    errors = sorted(
        Draft202012Validator(schema).iter_errors(result.structured_content), key=lambda e: e.path
    )
    return "; ".join(f"{list(e.absolute_path)}: {e.message[:150]}" for e in errors[:3])


async def _call(
    session: ClientSession, tool: Any, mock: PrismMock, arguments: dict[str, Any]
) -> CallRecord:
    record = CallRecord(tool.name, arguments, since=mock.mark())
    try:
        result = await session.call_tool(tool.name, arguments, read_timeout_seconds=60)
    except RuntimeError as refused:  # the SDK client's own outputSchema check
        record.output_problem = f"the SDK client refused it: {str(refused)[:EXCERPT]}"
    else:
        assert isinstance(result, CallToolResult)
        record.is_error = bool(result.is_error)
        record.text = _text(result)
        if not record.is_error:
            record.output_problem = _own_check(tool.output_schema, result)
    mock.settled(record.since)  # its answer is logged before the next call starts
    return record


def _judge(records: list[CallRecord], mock: PrismMock) -> None:
    """Each call's requests: what prism logged between its start and the next call's (read
    once all are done, as prism logs a refused answer a moment after the status line)."""
    mock.settled(records[-1].since if records else 0)
    ends = [r.since for r in records[1:]] + [None]
    for record, until in zip(records, ends, strict=True):
        record.exchanges = mock.exchanges(record.since, until)


async def call_every_tool(
    server: StdioServerParameters, mock: PrismMock, figures: SpecFigures, errlog: Path
) -> SpecFigures:
    """List the server's tools and call each one once with valid arguments."""
    with errlog.open("w", encoding="utf-8") as log:
        async with stdio_client(server, errlog=log) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = (await session.list_tools()).tools
                figures.tools = len(tools)
                for tool in sorted(tools, key=lambda t: t.name):
                    try:
                        arguments = valid_instance(tool.input_schema)
                    except NoInstance as none:
                        figures.records.append(CallRecord(tool.name, None, text=str(none)))
                        figures.records[-1].since = mock.mark()
                        continue
                    figures.records.append(await _call(session, tool, mock, arguments))
    time.sleep(0.3)  # the last call's late log lines
    _judge([r for r in figures.records if r.arguments is not None], mock)
    return figures
