"""Tests of the `create_entities` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from memory._generated.models import CreateEntitiesInput, CreateEntitiesOutput
from memory.handlers.create_entities import create_entities as handler

# `create_entities` has no example in mcpgen.yaml and needs arguments: add some here.
ARGUMENTS: list[Any] = []


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_create_entities(arguments: dict[str, Any]) -> None:
    args = CreateEntitiesInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("create_entities is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    CreateEntitiesOutput.model_validate(result, from_attributes=True)
