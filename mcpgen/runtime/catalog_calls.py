"""How the catalog's handlers run: as tools' do, on the server's worker threads, within its
timeout, so a resource, prompt or completion handler that blocks stalls no other request."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio

from .limits import Raised, WorkerPool


@dataclass(frozen=True)
class HandlerPolicy:
    """How a catalog handler runs: the server's worker threads and timeout (as for tools),
    and the redaction of the secrets' values in what it says."""

    redact: Callable[[str], str] = str
    workers: WorkerPool | None = None  # None: a sync handler runs on the event loop
    timeout: float | None = None


class TimedOut(Exception):
    """The handler did not answer within the policy's timeout."""


async def run_handler(
    handler: Callable[..., Any], arguments: dict[str, Any], policy: HandlerPolicy
) -> Any:
    """`handler(**arguments)`, awaited if it must be; `TimedOut` past the policy's timeout."""
    if not policy.timeout:
        return await _run(handler, arguments, policy.workers)
    with anyio.move_on_after(policy.timeout):
        return await _run(handler, arguments, policy.workers)
    raise TimedOut


async def _run(
    handler: Callable[..., Any], arguments: dict[str, Any], workers: WorkerPool | None
) -> Any:
    if workers is None or inspect.iscoroutinefunction(handler):
        outcome = handler(**arguments)
    else:
        try:
            outcome = await workers.run(functools.partial(handler, **arguments))
        except Raised as raised:  # what the handler raised in its thread, unwrapped
            raise raised.original from None
    return await outcome if inspect.isawaitable(outcome) else outcome
