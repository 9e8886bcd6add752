"""The server both sides of the fast-path judge serve: a small tool table, and catalogs.

Each tool is there for one branch of an answer: a plain call, arguments its schema refuses
(a pattern, a format, pattern properties), a structured result, a result breaking its own
output schema, a raising handler, a handler that wants a `Context` (never taken by a fast
path), text the JSON encoder must escape, a call still running when the input ends.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict

from mcpgen.runtime.catalog.catalog import Catalog
from mcpgen.runtime.catalog.prompts import PromptSpec
from mcpgen.runtime.catalog.resources import ResourceSpec, TemplateSpec
from mcpgen.runtime.core.server_info import OFFERS, ServerInfo
from mcpgen.runtime.dispatch.dispatcher import ToolSpec
from tests.support.runtime.tiny_tools import TOOLS as TINY_TOOLS

NAP = 0.5  # seconds the `nap` tool takes


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class EchoInput(BaseModel):
    text: str
    times: int = 1


def echo(args: EchoInput) -> str:
    return args.text * args.times


def structured(args: Open) -> dict[str, Any]:
    return {"n": len(args.model_extra or {})}


def breaks_its_schema(args: Open) -> dict[str, Any]:
    return {"n": "not a number"}


def raises(args: Open) -> str:
    raise RuntimeError("boom")


def wants_context(args: Open, context: Any) -> str:
    return "context"


async def nap(args: Open) -> str:
    await anyio.sleep(NAP)
    return "rested"


def surrogate(args: Open) -> str:
    return "file-\udc80.txt"  # what os.listdir gives for a name that is not UTF-8


ECHO = {
    "name": "echo",
    "description": "Repeat a text ✓.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "text": {"type": "string", "pattern": "^\\p{Lu}"},
            "times": {"type": "integer", "minimum": 1, "default": 1},
        },
        "required": ["text"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True},
    "_meta": {"vendor/x": 1},
}
COUNTED = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
OPEN = {"type": "object"}


def _tool(name: str, handler: Any, **definition: Any) -> ToolSpec[Any]:
    return ToolSpec({"name": name, "inputSchema": OPEN, **definition}, Open, handler, "h.py")


TOOLS: tuple[ToolSpec[Any], ...] = (
    ToolSpec(ECHO, EchoInput, echo, "h.py"),
    *(tool for tool in TINY_TOOLS if tool.name in ("when", "tags")),  # formats, patterns
    _tool("structured", structured, outputSchema=COUNTED),
    _tool("breaks", breaks_its_schema, outputSchema=COUNTED),
    _tool("raises", raises),
    _tool("context", wants_context),
    _tool("surrogate", surrogate),
    _tool("nap", nap),
)

INFO = ServerInfo(
    name="judged ✓",
    version="0.1.0",
    script="judged-server",
    description="The fast-path judge's server.",
    instructions='Use "echo" ✓, or\n\ttags \x01 é 𝄞 \u2028 \x7f \\ /',
)


def _read(uri: str) -> str:
    return uri


def _template(**variables: Any) -> str:
    return "t"


_RESOURCE = ResourceSpec({"uri": "test://a", "name": "a"}, text="a")
_WATCHED = ResourceSpec({"uri": "test://w", "name": "w"}, text="w", subscribe=True)
_TEMPLATE = TemplateSpec({"uriTemplate": "n://{id}", "name": "n"}, handler=_template)
_COMPLETED = TemplateSpec(
    {"uriTemplate": "c://{id}", "name": "c"}, handler=_template, completions={"id": ["1", "2"]}
)
_PROMPT = PromptSpec({"name": "p", "arguments": []}, template="hi")

# What the server offers besides tools: each changes the capabilities `initialize` declares.
CATALOGS: dict[str, tuple[Catalog | None, tuple[str, ...]]] = {
    "tools-only": (None, ()),
    "resources": (Catalog(resources=[_RESOURCE]), ("resources",)),
    "templates": (Catalog(templates=[_TEMPLATE]), ("resources",)),
    "subscribe": (Catalog(resources=[_RESOURCE, _WATCHED]), ("resources", "subscribe")),
    "prompts": (Catalog(prompts=[_PROMPT]), ("prompts",)),
    "everything": (
        Catalog(resources=[_WATCHED], templates=[_COMPLETED], prompts=[_PROMPT]),
        OFFERS,
    ),
}


def server_info(catalog: str) -> ServerInfo:
    """The server's `ServerInfo` with the catalog named `catalog`."""
    found, offers = CATALOGS[catalog]
    return replace(INFO, catalog=found, offers=offers)
