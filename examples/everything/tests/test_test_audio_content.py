"""Tests of the `test_audio_content` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from everything._generated.models import TestAudioContentInput
from everything.handlers.test_audio_content import test_audio_content as handler

# `test_audio_content` has no example in mcpgen.yaml; its schema accepts a call without arguments.
ARGUMENTS: list[Any] = [pytest.param({}, id="no-arguments")]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_test_audio_content(arguments: dict[str, Any]) -> None:
    args = TestAudioContentInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("test_audio_content is not implemented yet")
    assert result, "the handler answered nothing"
