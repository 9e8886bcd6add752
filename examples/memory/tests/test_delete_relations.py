"""Tests of the `delete_relations` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from memory._generated.models import DeleteRelationsInput, DeleteRelationsOutput
from memory.handlers.delete_relations import delete_relations as handler

# `delete_relations` has no example in mcpgen.yaml and needs arguments: add some here.
ARGUMENTS: list[Any] = []


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_delete_relations(arguments: dict[str, Any]) -> None:
    args = DeleteRelationsInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("delete_relations is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    DeleteRelationsOutput.model_validate(result, from_attributes=True)
