"""Tests of the `test_simple_text` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import TestSimpleTextInput
from everything.handlers.test_simple_text import test_simple_text as handler

# `test_simple_text` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_simple_text(arguments: dict[str, Any]) -> None:
    args = TestSimpleTextInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("test_simple_text is not implemented yet")
    assert result, "the handler answered nothing"
