"""Handler of the `test_simple_text` tool: Returns simple text content.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated.models import TestSimpleTextInput


def test_simple_text(args: TestSimpleTextInput) -> str:
    """Returns simple text content."""
    return "This is a simple text response for testing."
