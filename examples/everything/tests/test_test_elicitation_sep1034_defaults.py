"""Tests of the `test_elicitation_sep1034_defaults` handler. This file is yours: mcpgen created it
once and never changes it."""

from __future__ import annotations

from typing import Any

import pytest

from everything._generated import Context, ToolError
from everything._generated.models import TestElicitationSep1034DefaultsInput
from everything.handlers.test_elicitation_sep1034_defaults import (
    test_elicitation_sep1034_defaults as handler,
)

# `test_elicitation_sep1034_defaults` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_elicitation_sep1034_defaults(arguments: dict[str, Any]) -> None:
    args = TestElicitationSep1034DefaultsInput.model_validate(arguments)
    # Without a client to ask, the handler answers with a tool error.
    with pytest.raises(ToolError):
        await handler(args, Context(None))
