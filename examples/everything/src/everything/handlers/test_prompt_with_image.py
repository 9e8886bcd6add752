"""Handler of the `test_prompt_with_image` prompt: A prompt that includes image content

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import ImageContent, PromptMessage, TextContent

PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"  # a 1x1 PNG


def test_prompt_with_image() -> list[PromptMessage]:
    """An image, then a question about it."""
    return [
        PromptMessage(
            role="user", content=ImageContent(type="image", data=PIXEL, mime_type="image/png")
        ),
        PromptMessage(
            role="user", content=TextContent(type="text", text="Please analyze the image above.")
        ),
    ]
