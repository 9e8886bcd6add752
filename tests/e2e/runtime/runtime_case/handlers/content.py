from mcp.types import ContentBlock, ImageContent, TextContent

from runtime_case._generated.models import ContentInput


async def content(args: ContentInput) -> list[ContentBlock]:
    return [
        TextContent(type="text", text="a picture:"),
        ImageContent(type="image", data="iVBORw0KGgo=", mime_type="image/png"),
    ]
