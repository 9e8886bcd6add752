# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""How the catalog's handlers run: as tools' do, on the server's worker threads, within its
timeout, so a resource, prompt or completion handler that blocks stalls no other request."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
from pydantic import BaseModel

from ..core import guards
from ..core.limits import Raised, WorkerPool


@dataclass(frozen=True)
class HandlerPolicy:
    """How a catalog handler runs: the server's worker threads and timeout (as for tools),
    and the redaction of the secrets' values in what it says."""

    redact: Callable[[str], str] = str
    workers: WorkerPool | None = None  # None: a sync handler runs on the event loop
    timeout: float | None = None


Result = TypeVar("Result", bound=BaseModel)


class Unsendable(Exception):
    """Why a result cannot be sent (one sentence, no part of the result)."""


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
    # The same guards as a tool handler's: it cannot end, stop or deafen the server.
    guards.install()
    try:
        with guards.handler_running():
            return await _call(handler, arguments, workers)
    finally:
        guards.end_if_forked_child()  # raised or returned, never answered from a child


async def _call(
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


def sendable(result: Result, redact: Callable[[Any], Any], max_bytes: int) -> Result:
    """`result` as the client will get it: the secrets' values redacted, a lone surrogate (a
    file name that is not UTF-8) written as its `\\udcxx` escape, as tool results are;
    `Unsendable` when it is over `max_bytes`."""
    dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    wire = redact(dumped)
    try:
        size = len(_json(wire).encode("utf-8"))
    except UnicodeEncodeError:
        wire = _escaped(wire)
        size = len(_json(wire).encode("utf-8"))
    if max_bytes and size > max_bytes:
        raise Unsendable(
            f"it is {size} bytes, over the server's limit of {max_bytes} (--max-result-bytes)"
        )
    # Rebuilt only when something was redacted or escaped: most results pass as they are.
    return result if wire is dumped else type(result).model_validate(wire)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_escaped(k): _escaped(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_escaped(item) for item in value]
    return value
