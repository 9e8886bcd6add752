"""Tests of the `slow_compute` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import SlowComputeInput
from everything.handlers.slow_compute import slow_compute as handler

# `slow_compute` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_slow_compute(arguments: dict[str, Any]) -> None:
    args = SlowComputeInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("slow_compute is not implemented yet")
    assert result, "the handler answered nothing"
