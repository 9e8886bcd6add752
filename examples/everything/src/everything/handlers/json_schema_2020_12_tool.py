"""Handler of the `json_schema_2020_12_tool` tool: Takes arguments described with JSON Schema 2020-12 features.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated.models import JsonSchema202012ToolInput


def json_schema_2020_12_tool(args: JsonSchema202012ToolInput) -> str:
    """Takes arguments described with JSON Schema 2020-12 features."""
    return f"Received: {args.model_dump(mode='json', exclude_none=True)}"
