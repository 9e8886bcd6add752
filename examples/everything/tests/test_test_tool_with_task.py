"""Tests of the `test_tool_with_task` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import TestToolWithTaskInput
from everything.handlers.test_tool_with_task import test_tool_with_task as handler

# `test_tool_with_task` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_tool_with_task(arguments: dict[str, Any]) -> None:
    args = TestToolWithTaskInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("test_tool_with_task is not implemented yet")
    assert result, "the handler answered nothing"
