"""Handler of the `greet` tool: Greets someone at once (never a task).

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated.models import GreetInput


def greet(args: GreetInput) -> str:
    """Greets someone at once (never a task)."""
    return f"Hello, {args.name}!"
