# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""completion/complete: values for a prompt argument or a resource template variable.

Each argument's values come from the manifest (a list, matched here against what the user
typed) or from a user-owned handler, called with what was typed and the arguments the client
has already resolved (`context.arguments`, 2025-06-18), which does its own matching.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from typing import Any, TypeAlias

from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR, CompleteResult, Completion

from .handler_calls import HandlerPolicy, run_handler

# The protocol caps one answer at 100 values.
MAX_VALUES = 100

CompletionHandler: TypeAlias = Callable[..., Collection[str] | Awaitable[Collection[str]]]
# A manifest's list of values, or the user's handler that finds them.
CompletionSource: TypeAlias = Sequence[str] | CompletionHandler

logger = logging.getLogger(__name__)


def capped(values: Sequence[str]) -> CompleteResult:
    """The first 100 values, with how many there are and whether more were left out."""
    return CompleteResult(
        completion=Completion(
            values=list(values[:MAX_VALUES]),
            total=len(values),
            has_more=len(values) > MAX_VALUES,
        )
    )


def completed(candidates: Sequence[str], typed: str) -> CompleteResult:
    """The candidates that start with what the user typed, case-insensitively, in order."""
    prefix = typed.casefold()
    return capped([c for c in candidates if c.casefold().startswith(prefix)])


def nothing() -> CompleteResult:
    return CompleteResult(completion=Completion(values=[], total=0, has_more=False))


async def complete_from(
    source: CompletionSource | None,
    typed: str,
    resolved: Mapping[str, str] | None,
    context: Any,
    policy: HandlerPolicy | None = None,
) -> CompleteResult:
    """The answer for one argument, whichever kind of source gives its values."""
    if source is None:
        return nothing()
    if not callable(source):
        return completed(source, typed)
    called = await _called(source, typed, dict(resolved or {}), context, policy or HandlerPolicy())
    return capped(called)


async def _called(
    handler: CompletionHandler,
    typed: str,
    resolved: dict[str, str],
    context: Any,
    policy: HandlerPolicy,
) -> list[str]:
    arguments: dict[str, Any] = {"value": typed, "arguments": resolved}
    if "ctx" in inspect.signature(handler).parameters:
        arguments["ctx"] = context
    try:
        outcome = await run_handler(handler, arguments, policy)
    except BaseException as exc:  # SystemExit or KeyboardInterrupt too: one bad handler
        # must not end the server. Only a cancellation of the request itself goes through.
        if isinstance(exc, asyncio.CancelledError) and being_cancelled():
            raise
        # The exception's message may hold a secret: the client gets a fixed text, the
        # server's log the traceback.
        logger.exception("completion handler %s failed", getattr(handler, "__name__", handler))
        raise MCPError(INTERNAL_ERROR, "the completion handler failed") from None
    if not isinstance(outcome, Collection) or isinstance(outcome, (str, bytes)):
        # An iterator is refused, as a tool's is: drawing one here, on the event loop, would
        # hold every client until it ends (an endless one: forever).
        kind = type(outcome).__name__
        raise MCPError(INTERNAL_ERROR, f"the completion handler returned {kind}, not a list")
    values = list(outcome)
    if not all(isinstance(v, str) for v in values):
        raise MCPError(INTERNAL_ERROR, "the completion handler returned a value that is not text")
    return values


def being_cancelled() -> bool:
    """Whether the running task is being cancelled (not a handler raising CancelledError)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no asyncio loop: not ours to tell
        return True
    return task is not None and task.cancelling() > 0
