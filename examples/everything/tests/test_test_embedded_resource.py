"""Tests of the `test_embedded_resource` handler. This file is yours: mcpgen created it once and
never changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import TestEmbeddedResourceInput
from everything.handlers.test_embedded_resource import test_embedded_resource as handler

# `test_embedded_resource` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_embedded_resource(arguments: dict[str, Any]) -> None:
    args = TestEmbeddedResourceInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("test_embedded_resource is not implemented yet")
    assert result, "the handler answered nothing"
