"""Tests of the `test_tool_with_progress` handler. This file is yours: mcpgen created it once and
never changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated import Context
from everything._generated.models import TestToolWithProgressInput
from everything.handlers.test_tool_with_progress import test_tool_with_progress as handler

# `test_tool_with_progress` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_tool_with_progress(arguments: dict[str, Any]) -> None:
    args = TestToolWithProgressInput.model_validate(arguments)
    try:
        outcome = handler(args, Context(None))  # no client: logs and progress go nowhere
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("test_tool_with_progress is not implemented yet")
    assert result, "the handler answered nothing"
