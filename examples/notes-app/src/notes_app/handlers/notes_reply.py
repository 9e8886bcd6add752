"""Handler of the `notes.reply` tool: Reply to a comment. The reply may quote part of the parent
comment.

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`notes_app._generated.models`).
"""

from __future__ import annotations

from notes_app._generated.models import NotesReplyInput


async def notes_reply(args: NotesReplyInput) -> str:
    """Reply to a comment. The reply may quote part of the parent comment."""
    raise NotImplementedError
