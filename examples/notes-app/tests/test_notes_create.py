"""Tests of the `notes.create` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from notes_app._generated.models import NotesCreateInput, NotesCreateOutput
from notes_app.handlers.notes_create import notes_create as handler

# The examples of `notes.create` in mcpgen.yaml when this file was created; add your own.
ARGUMENTS: list[Any] = [
    pytest.param(
        {"notebook_id": "4f8b2c1a-9d3e-4a5b-8c7d-6e5f4a3b2c1d", "title": "Groceries"},
        id="example-0",
    ),
    pytest.param(
        {
            "notebook_id": "4f8b2c1a-9d3e-4a5b-8c7d-6e5f4a3b2c1d",
            "title": "Trip plan",
            "body": "- passport\n- charger",
            "pinned": True,
            "color": "blue",
            "remind_at": "2026-06-01T07:00:00Z",
            "attachments": [
                {"kind": "link", "url": "https://maps.example.com/route/42"},
                {"kind": "file", "file_id": "f-123", "size_bytes": 2048},
            ],
        },
        id="example-1",
    ),
]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_notes_create(arguments: dict[str, Any]) -> None:
    args = NotesCreateInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("notes_create is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    NotesCreateOutput.model_validate(result, from_attributes=True)
