"""Tests of the `multi_input` handler. This file is yours: mcpgen created it once and never changes
it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import MultiInputInput
from everything.handlers.multi_input import multi_input as handler

# `multi_input` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_multi_input(arguments: dict[str, Any]) -> None:
    args = MultiInputInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("multi_input is not implemented yet")
    assert result, "the handler answered nothing"
