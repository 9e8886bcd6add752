"""Tests of the `delete_observations` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from memory._generated.models import DeleteObservationsInput, DeleteObservationsOutput
from memory.handlers.delete_observations import delete_observations as handler

# `delete_observations` has no example in mcpgen.yaml and needs arguments: add some here.
ARGUMENTS: list[Any] = []


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_delete_observations(arguments: dict[str, Any]) -> None:
    args = DeleteObservationsInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("delete_observations is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    DeleteObservationsOutput.model_validate(result, from_attributes=True)
