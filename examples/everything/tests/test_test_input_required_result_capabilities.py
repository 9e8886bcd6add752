"""Tests of the `test_input_required_result_capabilities` handler. This file is yours: mcpgen
created it once and never changes it."""

from __future__ import annotations

from typing import Any

import pytest

from everything._generated import Context
from everything._generated.models import TestInputRequiredResultCapabilitiesInput
from everything.handlers.test_input_required_result_capabilities import (
    test_input_required_result_capabilities as handler,
)

# `test_input_required_result_capabilities` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_input_required_result_capabilities(arguments: dict[str, Any]) -> None:
    args = TestInputRequiredResultCapabilitiesInput.model_validate(arguments)
    # Without a client, the handler asks nothing.
    assert await handler(args, Context(None)) == "The client can answer no question."
