"""Handler of the `test_prompt_with_embedded_resource` prompt: A prompt that includes an embedded resource

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import EmbeddedResource, PromptMessage, TextContent, TextResourceContents


def test_prompt_with_embedded_resource(resourceUri: str) -> list[PromptMessage]:
    """The resource at `resourceUri`, embedded, then a question about it."""
    resource = TextResourceContents(
        uri=resourceUri, mime_type="text/plain", text="Embedded resource content for testing."
    )
    return [
        PromptMessage(role="user", content=EmbeddedResource(type="resource", resource=resource)),
        PromptMessage(
            role="user",
            content=TextContent(type="text", text="Please process the embedded resource above."),
        ),
    ]
