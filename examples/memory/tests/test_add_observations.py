"""Tests of the `add_observations` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from memory._generated.models import AddObservationsInput, AddObservationsOutput
from memory.handlers.add_observations import add_observations as handler

# `add_observations` has no example in mcpgen.yaml and needs arguments: add some here.
ARGUMENTS: list[Any] = []


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_add_observations(arguments: dict[str, Any]) -> None:
    args = AddObservationsInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("add_observations is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    AddObservationsOutput.model_validate(result, from_attributes=True)
