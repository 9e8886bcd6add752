"""Handler of the `test_embedded_resource` tool: Returns an embedded resource.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import EmbeddedResource, TextResourceContents

from everything._generated.models import TestEmbeddedResourceInput

EMBEDDED = EmbeddedResource(
    type="resource",
    resource=TextResourceContents(
        uri="test://embedded-resource",
        mime_type="text/plain",
        text="This is an embedded resource content.",
    ),
)


def test_embedded_resource(args: TestEmbeddedResourceInput) -> list[EmbeddedResource]:
    """Returns an embedded resource."""
    return [EMBEDDED]
