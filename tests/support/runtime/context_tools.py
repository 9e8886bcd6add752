"""Handlers that use the context, for the context tests."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, ConfigDict

from mcpgen.runtime.dispatch.context import Context
from mcpgen.runtime.dispatch.dispatcher import ToolSpec

SEEN: dict[str, Any] = {}


class Args(BaseModel):
    model_config = ConfigDict(extra="allow")


async def progress(args: Args, ctx: Context) -> str:
    for step in (1, 2, 3):
        await ctx.report_progress(step, total=3, message=f"step {step}")
        await ctx.debug(f"debug {step}")
        await ctx.warning(f"warning {step}")
    return "done"


async def ask(args: Args, ctx: Context) -> dict[str, Any]:
    first = await ctx.elicit(
        "Your name?", {"type": "object", "properties": {"name": {"type": "string"}}}
    )
    second = await ctx.elicit("Sure?", {"type": "object", "properties": {}})
    return {"name": (first.content or {}).get("name"), "second": second.action}


async def sample(args: Args, ctx: Context) -> str:
    answer = await ctx.sample("Say hi", max_tokens=5)
    content = answer.content
    return getattr(content, "text", "?")


async def wait_for_cancel(args: Args, ctx: Context) -> str:
    SEEN["started"] = True
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        SEEN["cancelled"] = True
        raise
    return "not cancelled"


def who(args: Args, ctx: Context) -> dict[str, Any]:
    info = ctx.client_info
    return {
        "request_id": ctx.request_id,
        "client": None if info is None else info.name,
        "env": dict(ctx.env),
        "subject": ctx.subject,
    }


def destroy(args: Args) -> str:
    SEEN["destroyed"] = True
    return "destroyed"


OPEN = {"type": "object"}


def _spec(name: str, handler: Any, **extra: Any) -> Any:
    definition = {"name": name, "inputSchema": OPEN}
    path = f"h/{name}.py"
    return ToolSpec(definition, input_model=Args, handler=handler, handler_path=path, **extra)


TOOLS: tuple[ToolSpec[Any], ...] = (
    _spec("progress", progress),
    _spec("ask", ask),
    _spec("sample", sample),
    _spec("wait_for_cancel", wait_for_cancel),
    _spec("who", who),
    _spec("destroy", destroy, confirm=True),
)
