"""Handler of the `confirm_delete` tool: As a task, asks the user to confirm deleting a file.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import ConfirmDeleteInput

CONFIRM = {"type": "object", "properties": {"confirm": {"type": "boolean"}}}


async def confirm_delete(args: ConfirmDeleteInput, ctx: Context) -> str:
    """As a task, asks the user to confirm deleting a file."""
    await ctx.begin_task()
    filename = args.filename or "the file"
    answer = await ctx.elicit(f"Delete {filename}?", CONFIRM, key="confirm")
    if answer.action == "accept" and (answer.content or {}).get("confirm"):
        return f"Deleted {filename}."
    return f"Kept {filename} ({answer.action})."
