"""Tests of the `open_nodes` handler. This file is yours: mcpgen created it once and never changes
it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from memory._generated.models import OpenNodesInput, OpenNodesOutput
from memory.handlers.open_nodes import open_nodes as handler

# `open_nodes` has no example in mcpgen.yaml and needs arguments: add some here.
ARGUMENTS: list[Any] = []


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_open_nodes(arguments: dict[str, Any]) -> None:
    args = OpenNodesInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("open_nodes is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    OpenNodesOutput.model_validate(result, from_attributes=True)
