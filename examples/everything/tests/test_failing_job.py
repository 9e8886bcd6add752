"""Tests of the `failing_job` handler. This file is yours: mcpgen created it once and never changes
it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import FailingJobInput
from everything.handlers.failing_job import failing_job as handler

# `failing_job` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_failing_job(arguments: dict[str, Any]) -> None:
    args = FailingJobInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("failing_job is not implemented yet")
    assert result, "the handler answered nothing"
