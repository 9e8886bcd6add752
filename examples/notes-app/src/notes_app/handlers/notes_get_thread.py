"""Handler of the `notes.get_thread` tool: Return the comment thread of a note, replies nested to
any depth.

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`notes_app._generated.models`).
"""

from __future__ import annotations

from notes_app._generated.models import NotesGetThreadInput, NotesGetThreadOutput


async def notes_get_thread(args: NotesGetThreadInput) -> NotesGetThreadOutput:
    """Return the comment thread of a note, replies nested to any depth."""
    raise NotImplementedError
