"""Handler of the `test_image_content` tool: Returns an image.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import ImageContent

from everything._generated.models import TestImageContentInput

PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"  # a 1x1 PNG


def test_image_content(args: TestImageContentInput) -> list[ImageContent]:
    """Returns an image."""
    return [ImageContent(type="image", data=PIXEL, mime_type="image/png")]
