"""Tests of the `test_elicitation` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import TestElicitationInput
from everything.handlers.test_elicitation import test_elicitation as handler

# `test_elicitation` has no example in mcpgen.yaml and needs arguments: add some here.
ARGUMENTS: list[Any] = []


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_elicitation(arguments: dict[str, Any]) -> None:
    args = TestElicitationInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("test_elicitation is not implemented yet")
    assert result, "the handler answered nothing"
