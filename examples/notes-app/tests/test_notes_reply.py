"""Tests of the `notes.reply` handler. This file is yours: mcpgen created it once and never changes
it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from notes_app._generated.models import NotesReplyInput
from notes_app.handlers.notes_reply import notes_reply as handler

# The examples of `notes.reply` in mcpgen.yaml when this file was created; add your own.
ARGUMENTS: list[Any] = [
    pytest.param({"comment_id": "c-1", "text": "Agreed!"}, id="example-0"),
    pytest.param(
        {
            "comment_id": "c-2",
            "text": "See above",
            "quote": {"start": 0, "end": 12},
            "visibility": 2,
        },
        id="example-1",
    ),
]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_notes_reply(arguments: dict[str, Any]) -> None:
    args = NotesReplyInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("notes_reply is not implemented yet")
    assert result, "the handler answered nothing"
