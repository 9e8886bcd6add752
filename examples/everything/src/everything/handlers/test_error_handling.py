"""Handler of the `test_error_handling` tool: Always fails.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import ToolError
from everything._generated.models import TestErrorHandlingInput


def test_error_handling(args: TestErrorHandlingInput) -> str:
    """Always fails."""
    raise ToolError("This tool intentionally returns an error for testing")
