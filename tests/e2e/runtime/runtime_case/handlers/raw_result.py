from mcp.types import CallToolResult, TextContent

from runtime_case._generated.models import RawResultInput


async def raw_result(args: RawResultInput) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text="as is")], is_error=True)
