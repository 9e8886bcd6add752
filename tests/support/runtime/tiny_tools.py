"""A tiny tool table for the runtime's tests, written as a generated `tools.py` would be."""

from __future__ import annotations

import datetime
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.dispatcher import ToolSpec


class EchoInput(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    text: str
    times: int = 1
    item_count: int | None = Field(None, alias="item-count")


class WhenInput(BaseModel):
    # Stricter than its schema: `format` is an annotation in JSON Schema, a type here.
    at: AwareDatetime


class TagsInput(BaseModel):
    model_config = ConfigDict(extra="allow")


def echo(args: EchoInput) -> str:
    return args.text * args.times


def when(args: WhenInput) -> dict[str, Any]:
    at = args.at
    return {
        "kind": type(at).__name__,
        "year": at.year if isinstance(at, datetime.datetime) else None,
    }


def tags(args: TagsInput) -> dict[str, Any]:
    return dict(args.model_extra or {})


ECHO = {
    "name": "echo",
    "description": "Repeat a text.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "text": {"type": "string", "pattern": "^\\p{Lu}"},
            "times": {"type": "integer", "minimum": 1, "default": 1},
            "item-count": {"type": "integer"},
        },
        "required": ["text"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True, "category": "text"},
    "_meta": {"vendor/x": 1},
}
WHEN = {
    "name": "when",
    "inputSchema": {
        "type": "object",
        "properties": {"at": {"type": "string", "format": "date-time"}},
        "required": ["at"],
    },
}
TAGS = {
    "name": "tags",
    "inputSchema": {
        "type": "object",
        "patternProperties": {"^\\d+$": {"type": "string"}, "^\\p{L}+$": {"type": "integer"}},
        "additionalProperties": False,
    },
}

TOOLS: tuple[ToolSpec[Any], ...] = (
    ToolSpec(ECHO, input_model=EchoInput, handler=echo, handler_path="handlers/echo.py"),
    ToolSpec(WHEN, input_model=WhenInput, handler=when, handler_path="handlers/when.py"),
    ToolSpec(TAGS, input_model=TagsInput, handler=tags, handler_path="handlers/tags.py"),
)
INFO = ServerInfo(name="tiny", version="0.1.0", script="tiny-server", description="Tiny.")
