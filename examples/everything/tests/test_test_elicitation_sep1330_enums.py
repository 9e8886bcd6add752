"""Tests of the `test_elicitation_sep1330_enums` handler. This file is yours: mcpgen created it
once and never changes it."""

from __future__ import annotations

from typing import Any

import pytest

from everything._generated import Context, ToolError
from everything._generated.models import TestElicitationSep1330EnumsInput
from everything.handlers.test_elicitation_sep1330_enums import (
    test_elicitation_sep1330_enums as handler,
)

# `test_elicitation_sep1330_enums` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_elicitation_sep1330_enums(arguments: dict[str, Any]) -> None:
    args = TestElicitationSep1330EnumsInput.model_validate(arguments)
    # Without a client to ask, the handler answers with a tool error.
    with pytest.raises(ToolError):
        await handler(args, Context(None))
