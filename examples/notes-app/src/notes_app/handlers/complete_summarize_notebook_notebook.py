"""Completions for `notebook` of the `summarize_notebook` prompt.

This file is yours: mcpgen created it once and never changes it.

completion/complete calls it with what the user has typed so far (`value`) and the other
arguments the client has already resolved (`arguments`, by name: style).
Return the suggestions, best first: the server sends the first 100 and says how many there
are. A plain `def` may block; `async def` must not. Add a parameter `ctx: Context` (from
`notes_app._generated`) for logging to the client, the caller or `env`.
"""

from __future__ import annotations

from collections.abc import Mapping


def complete_summarize_notebook_notebook(value: str, arguments: Mapping[str, str]) -> list[str]:
    """Suggestions for `notebook` that start with `value`."""
    return []
