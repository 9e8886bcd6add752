# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The server's modules, the SDK with them, loaded on a worker thread while the opening answers."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from ..core.server_info import ServerInfo

if TYPE_CHECKING:
    from ..dispatch.dispatcher import Dispatcher

Loaded = tuple[ModuleType, ServerInfo, "Dispatcher"]


def load_server(load: Callable[[], tuple[ServerInfo, Dispatcher]]) -> Loaded:
    from . import serve  # noqa: PLC0415  (the SDK's server stack: the slow part)

    info, dispatcher = load()
    serve.warm_up()
    return serve, info, dispatcher


class WarmUp:
    """`load`, run once on a worker thread from the start; `fd` becomes readable when done."""

    def __init__(self, load: Callable[[], tuple[ServerInfo, Dispatcher]]) -> None:
        self._load = load
        self._done = threading.Event()
        self._result: Loaded | None = None
        self._error: BaseException | None = None
        self.fd, self._wake = os.pipe()
        # Not a daemon: a server whose input ends meanwhile exits once the import is done,
        # instead of being torn down in the middle of it.
        self._thread = threading.Thread(target=self._run, name="warm-up")
        self._thread.start()

    def _run(self) -> None:
        try:
            self._result = load_server(self._load)
        except BaseException as exc:  # reported where it is waited for, on the main thread
            self._error = exc
        finally:
            self._done.set()
            with contextlib.suppress(OSError):
                os.write(self._wake, b"!")

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def result(self) -> Loaded:
        self._done.wait()
        os.close(self.fd)
        os.close(self._wake)
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result
