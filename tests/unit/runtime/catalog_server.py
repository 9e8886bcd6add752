"""`python catalog_server.py [flags]`: resources and prompts whose handlers misbehave."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from mcpgen.runtime.catalog import Catalog
from mcpgen.runtime.errors import ToolError
from mcpgen.runtime.prompts import PromptSpec
from mcpgen.runtime.resources import ResourceSpec
from mcpgen.runtime.runtime import Dispatcher
from mcpgen.runtime.serve import ServerInfo, main

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


KIND_NAMES = ["leak", "tool-error", *KINDS]
CATALOG = Catalog(
    resources=[
        *(_resource(kind) for kind in KIND_NAMES),
        ResourceSpec({"uri": "ok://text", "name": "text"}, text="fine"),
    ],
    prompts=[_prompt(kind) for kind in KIND_NAMES],
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
