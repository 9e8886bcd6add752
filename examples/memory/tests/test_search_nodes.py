"""Tests of the `search_nodes` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from memory._generated.models import SearchNodesInput, SearchNodesOutput
from memory.handlers.search_nodes import search_nodes as handler

# `search_nodes` has no example in mcpgen.yaml and needs arguments: add some here.
ARGUMENTS: list[Any] = []


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_search_nodes(arguments: dict[str, Any]) -> None:
    args = SearchNodesInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("search_nodes is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    SearchNodesOutput.model_validate(result, from_attributes=True)
