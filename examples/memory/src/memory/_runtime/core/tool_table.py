# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The tool table's rows, and their published form, importing nothing but the standard library.

A generated `tools.py` is made of `LazyTool` rows, so the server can read its tool table, and
answer tools/list, before the SDK and the handlers are loaded (see `stdio.opening`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from pydantic import BaseModel


class ToolCode(NamedTuple):
    """What a tool runs: its arguments' model, the user's handler, its result's model."""

    input_model: type[BaseModel]
    handler: Callable[..., Any]  # typed as `dispatch.dispatcher.Handler` where it is called
    output_model: type[BaseModel] | None = None


@dataclass(frozen=True)
class LazyTool:
    """A tool whose handler module (and with it its models) is imported on its first call:
    a server starts, and answers tools/list, without importing code no request needs yet.

    `load` raises what the import raises; the dispatcher turns that into the call's tool error
    and tries again on the next call.
    """

    definition: Mapping[str, Any]
    load: Callable[[], ToolCode]
    handler_path: str
    timeout: float | None = None
    confirm: bool = False
    scopes: tuple[str, ...] = ()
    renamed_from: tuple[str, ...] = ()  # former names, still answered (unlisted)
    rate_limit: tuple[int, float] | None = None  # (calls, per seconds), per client
    tags: tuple[str, ...] = ()  # toolsets it belongs to (`--toolsets`)
    max_result_chars: int | None = None  # None: the server's `--max-result-chars`

    @property
    def name(self) -> str:
        return str(self.definition["name"])


def to_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode_json(value: object) -> bytes:
    """`value` as compact UTF-8 JSON, as the tools/list answer carries it."""
    return to_json(value).encode("utf-8", "backslashreplace")


def is_plain_json(value: object) -> bool:
    """True if `value` is made of dicts with string keys, lists, strings, numbers, booleans
    and None only (exact types, no subclasses): what `json.loads` gives back for its text."""
    if type(value) is dict:
        return all(type(k) is str and is_plain_json(v) for k, v in value.items())
    if type(value) is list:
        return all(is_plain_json(item) for item in value)
    return value is None or type(value) in (str, int, float, bool)


def as_plain_json(definition: Mapping[str, Any]) -> Any:
    """`definition` itself when it is plain JSON, else a plain JSON copy of it."""
    return definition if is_plain_json(definition) else json.loads(to_json(definition))
