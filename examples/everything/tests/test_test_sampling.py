"""Tests of the `test_sampling` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import TestSamplingInput
from everything.handlers.test_sampling import test_sampling as handler

# `test_sampling` has no example in mcpgen.yaml and needs arguments: add some here.
ARGUMENTS: list[Any] = []


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_sampling(arguments: dict[str, Any]) -> None:
    args = TestSamplingInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("test_sampling is not implemented yet")
    assert result, "the handler answered nothing"
