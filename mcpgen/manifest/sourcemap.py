"""JSON paths inside a manifest, and where each one was written in the YAML source."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

JsonPath = tuple[str | int, ...]
Position = tuple[int, int]  # 1-based (line, column)

_PLAIN_KEY = re.compile(r"[A-Za-z_$@][A-Za-z0-9_$@-]*")


def format_path(path: JsonPath) -> str:
    """`("tools", 2, "input_schema", "type")` → `tools[2].input_schema.type`.

    Keys that would read ambiguously after a dot (`warehouse.zone`, `a b`, ``) are quoted:
    `properties["warehouse.zone"]`.
    """
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _PLAIN_KEY.fullmatch(part):
            text += f".{part}" if text else part
        else:
            text += f"[{json.dumps(part, ensure_ascii=False)}]"
    return text


@dataclass
class SourceMap:
    """Positions of keys and values by JSON path; lookups fall back to the nearest ancestor.

    The fallback matters for values reached through a YAML alias, which are recorded once,
    at their anchor, and for paths a validator invents (a missing property).
    """

    values: dict[JsonPath, Position] = field(default_factory=dict)
    keys: dict[JsonPath, Position] = field(default_factory=dict)
    # Numbers, booleans and nulls as written (`0.10`), for hints such as "quote it: "0.10"".
    scalar_text: dict[JsonPath, str] = field(default_factory=dict)

    def value_at(self, path: JsonPath) -> Position:
        """Where the value at `path` starts (or its key, or its closest ancestor)."""
        for end in range(len(path), -1, -1):
            prefix = path[:end]
            found = self.values.get(prefix) or self.keys.get(prefix)
            if found:
                return found
        return (1, 1)

    def key_at(self, path: JsonPath) -> Position:
        """Where the key naming `path` is written; the value's position for list items."""
        return self.keys.get(path) or self.value_at(path)
