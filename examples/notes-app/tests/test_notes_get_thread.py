"""Tests of the `notes.get_thread` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from notes_app._generated.models import NotesGetThreadInput, NotesGetThreadOutput
from notes_app.handlers.notes_get_thread import notes_get_thread as handler

# The examples of `notes.get_thread` in mcpgen.yaml when this file was created; add your own.
ARGUMENTS: list[Any] = [
    pytest.param(
        {"note_id": "0e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b", "order": "newest"}, id="example-0"
    ),
]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_notes_get_thread(arguments: dict[str, Any]) -> None:
    args = NotesGetThreadInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("notes_get_thread is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    NotesGetThreadOutput.model_validate(result, from_attributes=True)
