"""Handler of the `notebooks.list` tool: List the caller's notebooks. Takes no arguments.

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`notes_app._generated.models`).
"""

from __future__ import annotations

from notes_app._generated.models import NotebooksListInput, NotebooksListOutput


async def notebooks_list(args: NotebooksListInput) -> NotebooksListOutput:
    """List the caller's notebooks. Takes no arguments."""
    raise NotImplementedError
