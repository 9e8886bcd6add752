"""`python caller_server.py [flags]`: tools that report who called them, rate-limited tools
and an `around_call` hook, served by `serve.main` (the per-request credentials tests)."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, ConfigDict

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.context import Context
from mcpgen.runtime.dispatch.dispatcher import Dispatcher, ToolSpec
from mcpgen.runtime.dispatch.middleware import CallNext
from mcpgen.runtime.entry.serve import main

INFO = ServerInfo(
    name="caller",
    version="0.1.0",
    script="caller-server",
    description="Who called.",
    secret_headers=("X-Api-Key",),
)
OPEN = {"type": "object"}
logger = logging.getLogger("caller.tools")


class Args(BaseModel):
    model_config = ConfigDict(extra="allow")


async def whoami(args: Args, ctx: Context) -> dict[str, Any]:
    """The caller as the context sees it; waits a little so concurrent calls interleave."""
    await asyncio.sleep(float((args.model_extra or {}).get("wait", 0.05)))
    key = ctx.headers.get("x-api-key")
    if key:
        logger.warning("api key in use: %s; headers %s", key, ctx.headers)
    return {
        "tenant": ctx.headers.get("X-Tenant"),
        "tenant_lower": ctx.headers.get("x-tenant"),
        "token": ctx.access_token,
        "subject": ctx.subject,
        "session": ctx.session_id,
        "header_count": len(ctx.headers),
    }


def limited(args: Args) -> str:
    """Context-free: answered by the fast paths."""
    return "ok"


async def limited_ctx(args: Args, ctx: Context) -> str:
    """Takes a context: answered by the SDK."""
    return "ok"


def hooked(args: Args) -> str:
    return f"value={(args.model_extra or {}).get('value')}"


async def around_call(
    ctx: Context, tool: str, arguments: Mapping[str, Any], call_next: CallNext
) -> Any:
    """Doubles `hooked`'s value on the way in, marks its result on the way out."""
    if tool != "hooked":
        return await call_next(arguments)
    result = await call_next({**arguments, "value": arguments.get("value", 0) * 2})
    assert isinstance(result, CallToolResult)
    marked = f"{result.content[0].text} via {ctx.client_key.split(':')[0]}"  # type: ignore[union-attr]
    return CallToolResult(content=[TextContent(type="text", text=marked)])


def _spec(name: str, handler: Any, **extra: Any) -> ToolSpec[Any]:
    definition = {"name": name, "inputSchema": OPEN}
    path = f"h/{name}.py"
    return ToolSpec(definition, input_model=Args, handler=handler, handler_path=path, **extra)


TOOLS = (
    _spec("whoami", whoami),
    _spec("limited", limited, rate_limit=(2, 60.0)),
    _spec("limited_ctx", limited_ctx, rate_limit=(2, 60.0)),
    _spec("hooked", hooked),
)

if __name__ == "__main__":
    main(INFO, Dispatcher(TOOLS, around_call=around_call), sys.argv[1:])
