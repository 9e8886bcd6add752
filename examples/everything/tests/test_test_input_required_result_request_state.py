"""Tests of the `test_input_required_result_request_state` handler. This file is yours: mcpgen
created it once and never changes it."""

from __future__ import annotations

from typing import Any

import pytest

from everything._generated import Context, ToolError
from everything._generated.models import TestInputRequiredResultRequestStateInput
from everything.handlers.test_input_required_result_request_state import (
    test_input_required_result_request_state as handler,
)

# `test_input_required_result_request_state` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_input_required_result_request_state(arguments: dict[str, Any]) -> None:
    args = TestInputRequiredResultRequestStateInput.model_validate(arguments)
    # Without a client to ask, the handler answers with a tool error.
    with pytest.raises(ToolError):
        await handler(args, Context(None))
