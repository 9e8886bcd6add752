"""Handler of the `notes.create` tool: Create a note in a notebook.

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`notes_app._generated.models`).
"""

from __future__ import annotations

from notes_app._generated.models import NotesCreateInput, NotesCreateOutput


async def notes_create(args: NotesCreateInput) -> NotesCreateOutput:
    """Create a note in a notebook."""
    raise NotImplementedError
