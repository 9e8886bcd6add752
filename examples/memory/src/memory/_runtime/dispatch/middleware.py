# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""What runs around a tool call, on every path (the SDK's and the fast paths): the tool's
per-client rate limit, then the project's `around_call` hook.

`around_call(ctx, tool, arguments, call_next)` receives the call's `Context`, the tool's
name and the arguments as the client sent them; `await call_next(arguments)` runs the call
(validation, the handler, the result's checks) and returns its `CallToolResult`. The hook may
change the arguments or the result, answer with a result of its own, or time the call.

The stub `mcpgen generate` writes once passes every call through; a hook that is still that
stub is not called at all, and a server with neither a hook nor a rate limit has no guards:
a project that uses neither pays nothing for them.
"""

from __future__ import annotations

import dis
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import CodeType
from typing import Any, Protocol, TypeAlias

from mcp.types import CallToolResult, InputRequiredResult

from ..core.errors import ToolError
from ..core.results import error_result
from .context import Context
from .rate_limit import RateLimit, RateLimits, retry_message

CallResult: TypeAlias = CallToolResult | InputRequiredResult
CallNext: TypeAlias = Callable[[Mapping[str, Any]], Awaitable[CallResult]]
AroundCall: TypeAlias = Callable[[Context, str, Mapping[str, Any], CallNext], Awaitable[CallResult]]


class Dispatching(Protocol):
    """The dispatcher, as its guards see it (it imports this module)."""

    @property
    def policy(self) -> Any:
        """The dispatcher's `CallPolicy`: environment names, secret headers, error wording."""

    def _tool(self, name: str) -> Any: ...

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any],
        context: Context | None = None,
        *,
        http_request: Any = None,
        guarded: bool = False,
    ) -> CallResult:
        """Run the call; `guarded=True` skips the guards, which have run already."""


class Limited(Protocol):
    """A tool table row, as far as rate limits go."""

    @property
    def name(self) -> str:
        """The tool's name, which its limit is counted under."""


async def _pass_through(ctx: Any, tool: Any, arguments: Any, call_next: Any) -> Any:
    return await call_next(arguments)


def is_pass_through(hook: Callable[..., Any]) -> bool:
    """True for a hook whose code is `return await call_next(arguments)` and nothing else
    (a docstring and annotations aside): the stub as written."""
    code = getattr(hook, "__code__", None)
    reference = _pass_through.__code__
    return (
        code is not None
        and code.co_varnames == reference.co_varnames
        and code.co_argcount == reference.co_argcount
        and getattr(hook, "__defaults__", None) is None
        and _instructions(code) == _instructions(reference)
    )


def _instructions(code: CodeType) -> list[tuple[str, object]]:
    """What `code` does, by operation and value (not by the index of a constant, which a
    docstring shifts)."""
    return [(i.opname, i.argval) for i in dis.get_instructions(code)]


def rate_limits_of(tools: Sequence[Limited]) -> RateLimits:
    """The tools' `rate_limit`s (calls, per seconds), by tool name."""
    found = []
    for spec in tools:
        limit = getattr(spec, "rate_limit", None)  # absent from a table rendered before them
        if limit is not None:
            found.append((spec.name, RateLimit(int(limit[0]), float(limit[1]))))
    return RateLimits(found)


class CallGuards:
    """The rate limits and the hook of one dispatcher."""

    def __init__(self, rate_limits: RateLimits, hook: AroundCall | None) -> None:
        self.rate_limits = rate_limits
        self.hook = hook

    @classmethod
    def of(cls, tools: Sequence[Limited], around_call: AroundCall | None) -> CallGuards | None:
        """The guards `tools` and the project's hook ask for; None when there are none."""
        limits = rate_limits_of(tools)
        hook = None if around_call is None or is_pass_through(around_call) else around_call
        return cls(limits, hook) if limits or hook is not None else None

    async def call(
        self,
        dispatcher: Dispatching,
        name: str,
        arguments: Mapping[str, Any],
        context: Context | None,
        http_request: Any,
    ) -> CallResult:
        """`dispatcher.call` of `name`, within the tool's limit and through the hook."""
        # An unknown tool is refused as the dispatcher refuses it; a former name is the tool.
        tool = dispatcher._tool(name).spec.name
        policy = dispatcher.policy
        if context is None:  # a fast path's call: the context is built for the guards
            context = Context(
                None,
                env_names=policy.env_names,
                http_request=http_request,
                secret_headers=policy.secret_headers,
            )
        wait = self.rate_limits.wait(tool, context.client_key)
        if wait is not None:
            return error_result(retry_message(wait))
        called = context

        async def call_next(arguments: Mapping[str, Any]) -> CallResult:
            return await dispatcher.call(name, arguments, called, guarded=True)

        if self.hook is None:
            return await call_next(arguments)
        try:
            result = await self.hook(context, tool, arguments, call_next)
        except ToolError as exc:  # the hook's refusal, worded for the client
            return error_result(policy.errors.tool_error(exc))
        except Exception as exc:  # user code: the server keeps serving (the error is logged)
            return error_result(policy.errors.unexpected(tool, exc))
        if not isinstance(result, CallToolResult | InputRequiredResult):
            return error_result(
                f"around_call returned {type(result).__name__} for tool {tool!r}; "
                "it must return what call_next returned (a CallToolResult)"
            )
        return result
