"""`python catalog_server.py [flags]`: resources and prompts whose handlers misbehave, and
resource templates for hostile URIs (each handler answers the arguments it was given)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from mcpgen.runtime.catalog.catalog import Catalog
from mcpgen.runtime.catalog.prompts import PromptSpec
from mcpgen.runtime.catalog.resources import ResourceSpec, TemplateSpec
from mcpgen.runtime.core.errors import ToolError
from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import main

SECRET_ENV = "CATALOG_DB_PASSWORD"
KINDS: dict[str, type[BaseException]] = {
    "system-exit": SystemExit,
    "keyboard-interrupt": KeyboardInterrupt,
    "generator-exit": GeneratorExit,
}


def _raise(kind: str) -> Any:
    if kind == "leak":
        raise RuntimeError(f"could not connect to postgres://app:{os.environ[SECRET_ENV]}@db/x")
    if kind == "tool-error":  # a message meant for the client, with a secret in it by mistake
        raise ToolError(f"the archive refused key {os.environ[SECRET_ENV]}; try later")
    raise KINDS[kind]()


def _resource(kind: str) -> ResourceSpec:
    return ResourceSpec({"uri": f"bad://{kind}", "name": kind}, handler=lambda: _raise(kind))


def _prompt(kind: str) -> PromptSpec:
    return PromptSpec({"name": kind, "arguments": []}, handler=lambda: _raise(kind))


def given(**arguments: Any) -> str:
    """What the handler was given, values with their Python types."""
    return json.dumps({name: [value, type(value).__name__] for name, value in arguments.items()})


def search(q: str, n: int = 10) -> str:
    return given(q=q, n=n)


def _template(template: str, handler: Any = given, **options: Any) -> TemplateSpec:
    name = template.split(":", 1)[0]
    return TemplateSpec({"uriTemplate": template, "name": name}, handler=handler, **options)


TEMPLATES = [
    _template("notes://{folder}/{id}", parameters={"id": {"type": "integer", "minimum": 1}}),
    _template("files://{name}.{ext}"),
    _template("tree://{+a}/{+b}/{+c}"),
    _template("docs://{+path}"),
    _template("git://diff/{+range}", raw=frozenset({"range"})),
    _template("num://{x}", parameters={"x": {"type": "number", "minimum": 0, "maximum": 10}}),
    _template("flag://{on}", parameters={"on": {"type": "boolean"}}),
    # A back-reference: matched by the backtracking engine, in the regex child process.
    _template("word://{w}", parameters={"w": {"type": "string", "pattern": "^(a|aa)+\\1$"}}),
    _template("search://s{?q,n}", search, parameters={"n": {"type": "integer"}}),
    _template("seg://x{/segments*}"),
    _template("matrix://m{;x,y}", parameters={"y": {"type": "number"}}),
    _template("page://p{?q,page}", parameters={"page": {"type": "integer"}}),
    _template("dot://h{.d}"),
    _template("count://{c}", completions={"c": lambda value, arguments: endless(value)}),
    _template(
        "tag://{t}",
        parameters={"t": {"type": "string", "maxLength": 3}},
        completions={"t": lambda value, arguments: [value * 5000] * 100},
    ),
]


def endless(value: str) -> Iterator[str]:
    """A completion handler's generator that never ends."""
    return (f"{value}{number}" for number in itertools.count())


def subscriptions_held() -> str:
    """How many subscriptions the server holds: what ended sessions must not keep."""
    return str(len(CATALOG.subscriptions))


def slow() -> str:
    """A sync handler that blocks, as a plain `def` may."""
    time.sleep(float(os.environ.get("CATALOG_SLEEP", "30")))
    return "slept"


def big_text() -> str:
    return "x" * int(os.environ.get("CATALOG_BIG_BYTES", "300000"))


# Values a handler may return that are no sendable contents, or hold the secret.
ODD_VALUES: dict[str, Any] = {
    "surrogate": lambda: "caf\udce9",  # a file name that is not UTF-8
    "strings": lambda: ["a", "b"],
    "nan": lambda: {"ratio": float("nan")},
    "generator": lambda: (line for line in ["a", "b"]),  # an iterator, refused as a tool's
    "secret": lambda: f"key={os.environ[SECRET_ENV]}",
}
KIND_NAMES = ["leak", "tool-error", *KINDS]


def _ends_the_server_sync(what: str) -> Any:
    if what == "os-exit":
        os._exit(3)
    if what == "sigkill-self":
        os.kill(os.getpid(), signal.SIGKILL)
    if what == "sigterm-ignored":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    return what


async def _ends_the_server_async(what: str) -> Any:
    if what == "loop-stop":
        asyncio.get_running_loop().stop()
    return _ends_the_server_sync(what)


# Handlers that try to end, stop or deafen the server: guarded as tool handlers are.
ENDINGS = ["os-exit", "sigkill-self", "sigterm-ignored", "loop-stop"]


def _ending_sync(what: str) -> Any:
    def handler() -> Any:
        return _ends_the_server_sync(what)

    return handler


def _ending_async(what: str) -> Any:
    async def handler() -> Any:
        return await _ends_the_server_async(what)

    return handler


ENDING_HANDLERS = {
    **{f"sync-{what}": _ending_sync(what) for what in ENDINGS if what != "loop-stop"},
    **{f"async-{what}": _ending_async(what) for what in ENDINGS},
}
CATALOG = Catalog(
    resources=[
        *(_resource(kind) for kind in KIND_NAMES),
        ResourceSpec({"uri": "ok://text", "name": "text"}, text="fine"),
        *(
            ResourceSpec({"uri": f"end://{name}", "name": f"end-{name}"}, handler=handler)
            for name, handler in ENDING_HANDLERS.items()
        ),
        ResourceSpec({"uri": "watch://a", "name": "watched"}, text="w", subscribe=True),
        ResourceSpec({"uri": "debug://subscriptions", "name": "held"}, handler=subscriptions_held),
        ResourceSpec({"uri": "big://text", "name": "big"}, handler=big_text),
        ResourceSpec({"uri": "slow://sync", "name": "slow"}, handler=slow),
        *(
            ResourceSpec({"uri": f"odd://{name}", "name": f"odd-{name}"}, handler=value)
            for name, value in ODD_VALUES.items()
        ),
    ],
    templates=TEMPLATES,
    prompts=[
        *(_prompt(kind) for kind in KIND_NAMES),
        PromptSpec({"name": "slow", "arguments": []}, handler=slow),
        PromptSpec({"name": "endless", "arguments": []}, handler=lambda: endless("message ")),
        *(
            PromptSpec({"name": f"end-{name}", "arguments": []}, handler=handler)
            for name, handler in ENDING_HANDLERS.items()
        ),
        *(
            PromptSpec({"name": f"odd-{name}", "arguments": []}, handler=value)
            for name, value in ODD_VALUES.items()
        ),
    ],
)
INFO = ServerInfo(
    name="catalog",
    version="0.1.0",
    script="catalog-server",
    description="Misbehaving resource and prompt handlers.",
    secret_env=(SECRET_ENV,),
    catalog=CATALOG,
)

if __name__ == "__main__":
    main(INFO, Dispatcher(()), sys.argv[1:])
