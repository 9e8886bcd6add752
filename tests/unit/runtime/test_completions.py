"""completion/complete's answer: static lists matched here, handlers' values capped at 100."""

from __future__ import annotations

from asyncio import CancelledError
from collections.abc import Mapping
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from mcpgen.runtime.catalog.completions import MAX_VALUES, complete_from


@pytest.mark.anyio
async def test_a_static_list_is_matched_by_prefix_case_insensitively() -> None:
    found = await complete_from(["Inbox", "archive", "important"], "i", None, None)
    assert found.completion.values == ["Inbox", "important"]
    assert (found.completion.total, found.completion.has_more) == (2, False)


@pytest.mark.anyio
async def test_no_source_answers_nothing() -> None:
    found = await complete_from(None, "x", None, None)
    assert (found.completion.values, found.completion.total) == ([], 0)


@pytest.mark.anyio
async def test_a_handler_gets_the_value_and_the_resolved_arguments() -> None:
    seen: list[tuple[str, dict[str, str]]] = []

    def handler(value: str, arguments: Mapping[str, str]) -> list[str]:
        seen.append((value, dict(arguments)))
        return [f"{arguments['folder']}/{value}{n}" for n in range(3)]

    found = await complete_from(handler, "a", {"folder": "inbox"}, None)
    assert seen == [("a", {"folder": "inbox"})]
    assert found.completion.values == ["inbox/a0", "inbox/a1", "inbox/a2"]


@pytest.mark.anyio
@pytest.mark.parametrize(("count", "has_more"), [(99, False), (100, False), (101, True)])
async def test_a_handler_answer_is_capped_at_100_with_total_and_has_more(
    count: int, has_more: bool
) -> None:
    async def handler(value: str, arguments: Mapping[str, str]) -> list[str]:
        return [str(n) for n in range(count)]

    found = await complete_from(handler, "", None, None)
    assert found.completion.values == [str(n) for n in range(min(count, MAX_VALUES))]
    assert (found.completion.total, found.completion.has_more) == (count, has_more)


@pytest.mark.anyio
async def test_a_handler_that_asks_for_ctx_gets_it() -> None:
    def handler(value: str, arguments: Mapping[str, str], ctx: Any) -> list[str]:
        return [ctx]

    found = await complete_from(handler, "", None, "the context")
    assert found.completion.values == ["the context"]


@pytest.mark.anyio
async def test_a_failing_handler_is_an_error_without_its_message() -> None:
    def handler(value: str, arguments: Mapping[str, str]) -> list[str]:
        raise ValueError("password=hunter2")

    with pytest.raises(MCPError) as failed:
        await complete_from(handler, "", None, None)
    assert "hunter2" not in str(failed.value)


@pytest.mark.anyio
async def test_values_that_are_not_text_are_refused() -> None:
    def handler(value: str, arguments: Mapping[str, str]) -> list[Any]:
        return ["ok", 3]

    with pytest.raises(MCPError, match="not text"):
        await complete_from(handler, "", None, None)


@pytest.mark.anyio
@pytest.mark.parametrize("kind", [SystemExit, KeyboardInterrupt, GeneratorExit, CancelledError])
async def test_a_handler_raising_a_base_exception_is_an_error_not_the_servers_end(
    kind: type[BaseException],
) -> None:
    async def handler(value: str, arguments: Mapping[str, str]) -> list[str]:
        raise kind

    with pytest.raises(MCPError, match="the completion handler failed"):
        await complete_from(handler, "", None, None)
