# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""What a handler cannot do to the server, where Python lets the runtime say no.

While a handler runs (its task, its worker thread, and tasks it starts), `os._exit` in the
server's process, `os.kill` of the server's own process (or its group), `loop.stop()` on the
server's event loop, and `signal.signal` for the signals the server ends on (SIGTERM,
SIGINT) raise `ServerGuarded` in the handler instead: its call ends in an error result and
the server keeps serving. A process the handler forks that returns into the runtime ends
there at once (`os._exit(0)`), before it can answer a request on the protocol channel it
shares with the server. What Python code cannot stop (C code calling `_exit` or `kill`, a
thread the handler started itself, outside the call's context) is listed in the README.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType
from typing import Any, NoReturn

_in_handler: ContextVar[bool] = ContextVar("in_handler", default=False)
_real_exit = os._exit
_real_signal = signal.signal
_real_kill = os.kill
_server_pid: int | None = None  # set by `install`
_SERVER_SIGNALS = {signal.SIGTERM, signal.SIGINT}
_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


class ServerGuarded(RuntimeError):
    """A handler tried to end or stop the server, or to take its signals."""


def install() -> None:
    """Guard this process (once; the process that serves is the one that installs)."""
    global _server_pid  # noqa: PLW0603  (one server per process)
    if _server_pid is not None:
        return
    _server_pid = os.getpid()
    os._exit = _guarded_exit
    os.kill = _guarded_kill
    signal.signal = _guarded_signal


@contextmanager
def handler_running() -> Iterator[None]:
    """Inside, the code runs as a handler's: the guards apply to it."""
    guard_loop()
    token = _in_handler.set(True)
    try:
        yield
    finally:
        _in_handler.reset(token)


def guard_loop() -> None:
    """Make the running event loop's `stop` refuse a handler (once per loop)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    stop = loop.stop
    if getattr(stop, "guarded", False):
        return

    def guarded_stop() -> None:
        if _in_handler.get():
            raise ServerGuarded("a handler cannot stop the server's event loop")
        stop()

    guarded_stop.guarded = True  # type: ignore[attr-defined]
    loop.stop = guarded_stop  # type: ignore[method-assign]


def end_if_forked_child() -> None:
    """In a child a handler forked that returned into the runtime: end it now, silently.

    It shares the server's protocol channel; left running, it would answer requests too.
    """
    if _server_pid is not None and os.getpid() != _server_pid:
        _real_exit(0)


def _is_handler_in_server() -> bool:
    return _in_handler.get() and os.getpid() == _server_pid


def _guarded_exit(status: int) -> NoReturn:
    if _is_handler_in_server():
        raise ServerGuarded(f"a handler cannot end the server (os._exit({status}))")
    _real_exit(status)


def _guarded_signal(signalnum: int, handler: _Handler) -> _Handler:
    if signalnum in _SERVER_SIGNALS and _is_handler_in_server():
        name = signal.Signals(signalnum).name
        raise ServerGuarded(f"a handler cannot change how the server handles {name}")
    return _real_signal(signalnum, handler)


def _guarded_kill(pid: int, signalnum: int) -> None:
    # 0 and -PGID name the server's process group; signal 0 only asks whether it exists.
    group = (-os.getpgrp(),) if hasattr(os, "getpgrp") else ()  # no groups on Windows
    ours = pid in (os.getpid(), 0, *group)
    if ours and signalnum != 0 and _is_handler_in_server():
        raise ServerGuarded(f"a handler cannot signal the server's own process ({signalnum})")
    _real_kill(pid, signalnum)
