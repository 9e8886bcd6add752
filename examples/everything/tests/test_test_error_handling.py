"""Tests of the `test_error_handling` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

from typing import Any

import pytest

from everything._generated import ToolError
from everything._generated.models import TestErrorHandlingInput
from everything.handlers.test_error_handling import test_error_handling as handler

# `test_error_handling` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_error_handling(arguments: dict[str, Any]) -> None:
    args = TestErrorHandlingInput.model_validate(arguments)
    # Without a client, the handler answers with a tool error.
    with pytest.raises(ToolError):
        handler(args)
