"""Tests of the `test_multiple_content_types` handler. This file is yours: mcpgen created it once
and never changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import TestMultipleContentTypesInput
from everything.handlers.test_multiple_content_types import test_multiple_content_types as handler

# `test_multiple_content_types` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_multiple_content_types(arguments: dict[str, Any]) -> None:
    args = TestMultipleContentTypesInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("test_multiple_content_types is not implemented yet")
    assert result, "the handler answered nothing"
