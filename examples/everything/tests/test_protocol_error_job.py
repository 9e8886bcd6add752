"""Tests of the `protocol_error_job` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import ProtocolErrorJobInput
from everything.handlers.protocol_error_job import protocol_error_job as handler

# `protocol_error_job` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_protocol_error_job(arguments: dict[str, Any]) -> None:
    args = ProtocolErrorJobInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("protocol_error_job is not implemented yet")
    assert result, "the handler answered nothing"
