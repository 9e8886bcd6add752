"""Code around every tool call of the memory server, for what mcpgen.yaml cannot say.

This file is yours: mcpgen created it once and never changes it. `around_call` runs around
every tool call, on every transport (stdio and HTTP, and the fast paths that answer plain
calls), after the tool's `rate_limit` has admitted it. Uses: check a tenant header, refuse a
caller, log or time calls, adjust arguments or results.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memory._generated import CallNext, CallResult, Context


async def around_call(
    ctx: Context, tool: str, arguments: Mapping[str, Any], call_next: CallNext
) -> CallResult:
    """Wrap one tool call; return its result.

    - `ctx`: the call's context: `ctx.headers` (the HTTP request's, any case; empty on
      stdio), `ctx.access_token`, `ctx.subject`, `ctx.session_id`, `ctx.client_key`, ...
    - `tool`: the tool's name; `arguments`: as the client sent them, not validated yet.
    - `call_next(arguments)`: runs the call (argument validation, the handler, the result's
      checks) and returns its `CallToolResult` (an error result too: it never raises). Pass
      other arguments to change them; skip it to answer without running the tool.

    Return what `call_next` returned, changed or not, or a `CallToolResult` of your own
    (`mcp.types`); raise `ToolError("...")` (from `._generated`) to refuse the call with
    that message. While this function only passes calls through, as written here, the
    server skips it.
    """
    return await call_next(arguments)
