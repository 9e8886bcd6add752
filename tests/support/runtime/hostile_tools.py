"""Handlers that misbehave in every way a handler can, for the dispatcher's robustness tests."""

from __future__ import annotations

import asyncio
import datetime
import itertools
import os
import signal
import sys
import time
from typing import Any

from pydantic import BaseModel, ConfigDict, field_serializer

from mcpgen.runtime.core.errors import ToolError
from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.context import Context
from mcpgen.runtime.dispatch.dispatcher import ToolSpec

SECRET_ENV = "HOSTILE_DB_PASSWORD"


class Args(BaseModel):
    model_config = ConfigDict(extra="allow")
    what: str = ""
    seconds: float = 0


class Unreadable(Exception):
    """An exception whose message cannot be read: its `__str__` recurses."""

    def __str__(self) -> str:
        return str(self)


class UnreadableToolError(ToolError):
    def __str__(self) -> str:
        raise RuntimeError("no message")


def raise_it(args: Args) -> Any:
    """Raise (or return) whatever `what` names."""
    kinds: dict[str, Any] = {
        "system-exit": SystemExit(3),
        "keyboard-interrupt": KeyboardInterrupt(),
        "generator-exit": GeneratorExit(),
        "tool-error": ToolError("the city is unknown"),
        "leak": RuntimeError(f"could not connect to postgres://app:{os.environ[SECRET_ENV]}@db/x"),
        "unreadable": Unreadable(),
        "unreadable-tool-error": UnreadableToolError(),
    }
    if args.what in kinds:
        raise kinds[args.what]
    returned: dict[str, Any] = {
        "datetime": {"at": datetime.datetime(2024, 5, 1, tzinfo=datetime.UTC)},
        "set": {"tags": {"b"}},
        "bytes": {"raw": b"\xff\x00"},
        "nan": {"ratio": float("nan")},
        "surrogate": {"name": "caf\udce9.txt"},
        "object": {"thing": object()},
        "big": "x" * 5_000_000,
        "secret": f"the password is {os.environ[SECRET_ENV]}",
        "endless": itertools.count(),
        "endless-inside": {"rows": [{"cells": itertools.repeat("x")}]},
        "huge-int": {"n": 10**5000},
        "circular": _circular(),
    }
    return returned[args.what]


def _circular() -> dict[str, Any]:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    return loop


class SlowToSerialize(BaseModel):
    """A result whose conversion to JSON takes `seconds`."""

    seconds: float

    @field_serializer("seconds")
    def _slowly(self, seconds: float) -> float:
        time.sleep(seconds)
        return seconds


def slow_result(args: Args) -> SlowToSerialize:
    return SlowToSerialize(seconds=args.seconds)


async def cancel_itself(args: Args) -> str:
    raise asyncio.CancelledError


async def exit_async(args: Args) -> str:
    sys.exit(2)


def prints_secret(args: Args) -> str:
    """Print the secret every way Python code can: whole, in pieces, as bytes, flushed
    mid-secret, to the interpreter's original streams."""
    secret = os.environ[SECRET_ENV]
    print(f"stdout: connecting with {secret}")
    print("stderr: connecting with", secret, file=sys.stderr)
    for piece in (f"pieces: {secret[:3]}", secret[3:8], f"{secret[8:]} end\n"):
        sys.stdout.write(piece)
    sys.stderr.buffer.write(f"bytes: {secret}\n".encode())
    print(f"flushed: {secret}", flush=True)
    print(f"flushed in pieces: {secret[:4]}", end="", flush=True)
    print(secret[4:], flush=True)
    print(f"original streams: {secret}", file=sys.__stderr__)
    print(f"original streams: {secret}", file=sys.__stdout__)
    print(f"unfinished: {secret[:3]}", end="", flush=True)  # held back, written at exit
    return "printed"


def breaks_sync(args: Args) -> str:
    """From a worker thread, what `breaks_async` does from the event loop's."""
    return _break(args.what)


async def breaks_async(args: Args) -> str:
    return _break(args.what)


def _break(what: str) -> str:
    """Try to end, stop or take over the server the way `what` names."""
    if what == "os-exit":
        os._exit(3)
    if what == "fork":  # both processes return into the runtime
        return "child" if os.fork() == 0 else "parent"
    if what == "sigkill-self":
        os.kill(os.getpid(), signal.SIGKILL)
    if what == "loop-stop":
        asyncio.get_running_loop().stop()
    if what == "sigterm-ignored":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if what == "close-stdio":
        for fd in (0, 1):
            os.close(fd)
    if what == "stdout-none":
        sys.stdout = None  # type: ignore[assignment]
        print("nowhere")
    return what


async def stubborn_async(args: Args) -> str:
    """Catch every cancellation and go on, for `seconds`."""
    ends = time.monotonic() + args.seconds
    while time.monotonic() < ends:
        try:
            await asyncio.sleep(0.05)
        except asyncio.CancelledError:
            pass
    return "finished anyway"


def whoami(args: Args, ctx: Context) -> dict[str, Any]:
    return {"subject": ctx.subject, "scopes": list(ctx.scopes)}


def sleep_sync(args: Args) -> str:
    time.sleep(args.seconds)
    return "slept"


async def sleep_async(args: Args) -> str:
    await asyncio.sleep(args.seconds)
    return "slept"


OPEN = {"type": "object", "properties": {"what": {"type": "string"}, "seconds": {"type": "number"}}}
LONG = {"type": "object", "properties": {"text": {"type": "string", "maxLength": 10}}}


def _spec(name: str, handler: Any, schema: Any = OPEN, **extra: Any) -> Any:
    definition = {"name": name, "inputSchema": schema}
    return ToolSpec(
        definition, input_model=Args, handler=handler, handler_path=f"h/{name}.py", **extra
    )


TOOLS: tuple[ToolSpec[Any], ...] = (
    _spec("raise_it", raise_it),
    _spec("cancel_itself", cancel_itself),
    _spec("exit_async", exit_async),
    _spec("sleep_sync", sleep_sync, timeout=0.2),
    _spec("sleep_async", sleep_async, timeout=0.2),
    _spec("long_text", raise_it, schema=LONG),
    _spec("sleep_untimed", sleep_async),
    _spec("admin_only", sleep_async, scopes=("admin",)),
    _spec("whoami", whoami),
    _spec("prints_secret", prints_secret),
    _spec("slow_result", slow_result, timeout=0.5),
    _spec("stubborn_async", stubborn_async, timeout=0.5),
    _spec("breaks_sync", breaks_sync),
    _spec("breaks_async", breaks_async),
)
INFO = ServerInfo(
    name="hostile",
    version="0.1.0",
    script="hostile-server",
    description="Misbehaving handlers.",
    secret_env=(SECRET_ENV,),
)
