# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Bounded work: sync handlers run on a fixed set of threads that a timeout does not free.

A thread cannot be stopped from outside. A sync handler that overruns its timeout keeps its
thread until it returns, so the pool counts it as busy until then; when every thread is busy
a call is refused at once with an error result, instead of starting one more thread per call
(which let 300 timed-out calls leave 303 threads behind).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import queue
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import anyio

from .defaults import DEFAULT_WORKERS
from .guards import end_if_forked_child

logger = logging.getLogger(__name__)


class PoolSaturated(Exception):
    """Every worker thread is busy (some perhaps with calls that already timed out)."""


class Raised(Exception):
    """What a handler raised, carried across the thread boundary as an ordinary exception.

    `SystemExit` or `GeneratorExit` re-raised as they are in the event loop would unwind
    the server itself; wrapped, they reach the dispatcher like any other failure.
    """

    def __init__(self, original: BaseException) -> None:
        super().__init__(original)
        self.original = original


class LoopLimiter:
    """A capacity limiter in each event loop that asks for one (a limiter is bound to one)."""

    def __init__(self, tokens: int) -> None:
        self._tokens = tokens
        self._limiters: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, anyio.CapacityLimiter
        ] = weakref.WeakKeyDictionary()

    def here(self) -> anyio.CapacityLimiter:
        """This event loop's limiter."""
        loop = asyncio.get_running_loop()
        limiter = self._limiters.get(loop)
        if limiter is None:
            limiter = self._limiters[loop] = anyio.CapacityLimiter(self._tokens)
        return limiter


class _Call:
    """One call's state, read and written under the pool's lock."""

    finished = False
    overrun = False


class WorkerPool:
    """At most `size` sync handlers at once, each holding its thread until it really ends."""

    def __init__(self, size: int = DEFAULT_WORKERS) -> None:
        self.size = size
        self._busy = 0
        self._overrun = 0  # calls answered (timed out, cancelled) whose thread still runs
        self._lock = threading.Lock()
        self._executor: _DaemonThreads | None = None

    @property
    def busy(self) -> int:
        return self._busy

    @property
    def overrun(self) -> int:
        return self._overrun

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` in a worker thread, with the caller's context variables."""
        with self._lock:
            if self._busy >= self.size:
                raise PoolSaturated(self._saturation_message())
            self._busy += 1
        if self._executor is None:
            self._executor = _DaemonThreads(self.size)
        call = _Call()
        context = contextvars.copy_context()
        future = self._executor.submit(self._work, call, context, function, *args)
        try:
            outcome = await asyncio.wrap_future(future)
        finally:
            with self._lock:
                if not call.finished:  # answered (timed out, cancelled) while still running
                    call.overrun = True
                    self._overrun += 1
        if isinstance(outcome, Raised):
            raise outcome
        return outcome

    def _work(
        self, call: _Call, context: contextvars.Context, function: Callable[..., Any], *args: Any
    ) -> Any:
        try:
            outcome = context.run(function, *args)
        except BaseException as exc:  # every kind, see `Raised`
            outcome = Raised(exc)
        # Before any lock: one another thread held at a fork stays held in the child.
        end_if_forked_child()
        with self._lock:
            call.finished = True
            self._busy -= 1
            if call.overrun:
                self._overrun -= 1
                logger.warning("a sync handler finished after its call was answered")
        return outcome

    def _saturation_message(self) -> str:
        stuck = f", {self._overrun} of them past their timeout" if self._overrun else ""
        return (
            f"the server is busy: all {self.size} worker threads are running sync handlers"
            f"{stuck}; try again later (the server's --workers sets how many)"
        )


class _DaemonThreads:
    """Up to `size` daemon threads taking work from one queue, started as work needs them.

    Daemon threads, unlike a ThreadPoolExecutor's (joined at interpreter exit): a handler
    stuck past its timeout must not keep the server from exiting when its input ends.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._started = 0
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._work: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]]
        self._work = queue.SimpleQueue()

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._work.put((future, function, args))
        if not self._idle.acquire(blocking=False):
            with self._lock:
                start = self._started < self._size
                self._started += start
            if start:
                name = f"handler_{self._started}"
                threading.Thread(target=self._serve, name=name, daemon=True).start()
        return future

    def _serve(self) -> None:
        while True:
            future, function, args = self._work.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(function(*args))
                except BaseException as exc:  # handed to the waiting caller
                    future.set_exception(exc)
            del future, function, args  # nothing of a finished call is kept alive
            self._idle.release()
