"""Handler of the `test_multiple_content_types` tool: Returns text, an image and an embedded resource.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import (
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    TextContent,
    TextResourceContents,
)

from everything._generated.models import TestMultipleContentTypesInput

PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"  # a 1x1 PNG


def test_multiple_content_types(args: TestMultipleContentTypesInput) -> list[ContentBlock]:
    """Returns text, an image and an embedded resource."""
    return [
        TextContent(type="text", text="Multiple content types test:"),
        ImageContent(type="image", data=PIXEL, mime_type="image/png"),
        EmbeddedResource(
            type="resource",
            resource=TextResourceContents(
                uri="test://mixed-content-resource",
                mime_type="application/json",
                text='{"test": "data", "value": 123}',
            ),
        ),
    ]
