"""Tests of the `confirm_delete` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import ConfirmDeleteInput
from everything.handlers.confirm_delete import confirm_delete as handler

# `confirm_delete` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_confirm_delete(arguments: dict[str, Any]) -> None:
    args = ConfirmDeleteInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("confirm_delete is not implemented yet")
    assert result, "the handler answered nothing"
