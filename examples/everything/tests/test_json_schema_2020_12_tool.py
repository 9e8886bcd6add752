"""Tests of the `json_schema_2020_12_tool` handler. This file is yours: mcpgen created it once and
never changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import JsonSchema202012ToolInput
from everything.handlers.json_schema_2020_12_tool import json_schema_2020_12_tool as handler

# `json_schema_2020_12_tool` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_json_schema_2020_12_tool(arguments: dict[str, Any]) -> None:
    args = JsonSchema202012ToolInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("json_schema_2020_12_tool is not implemented yet")
    assert result, "the handler answered nothing"
