"""Handler of the `notebooks.list` tool: List the caller's notebooks. Takes no arguments.

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`notes_app._generated.models`).

A plain `def` runs in a worker thread, so blocking code (files, `requests`, a database
driver) is fine here. Write `async def` only if the body awaits and never blocks.
Raise `ToolError("...")` to answer with that message as the tool's error. For progress,
logging to the client, questions to the user or the caller's identity, add a second
parameter `ctx: Context` (both from `notes_app._generated`).
"""

from __future__ import annotations

from notes_app._generated.models import NotebooksListInput, NotebooksListOutput


def notebooks_list(args: NotebooksListInput) -> NotebooksListOutput:
    """List the caller's notebooks. Takes no arguments."""
    raise NotImplementedError
