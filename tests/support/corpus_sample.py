"""Which corpus inputs an expensive per-input test runs on: in CI, the fewest inputs that
between them use every schema keyword, JSON type and tool key the whole corpus uses, plus a
seeded draw of the others; in a full run (`tests/support/sweep.py`), every input.

A project per input is generated, installed and tested, which takes seconds per input: the
covering set keeps every feature of every real server under test while running a fraction of
them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tests.support import sweep

# Keywords whose value maps names to subschemas, holds a list of them, or is one.
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_ONES = (
    "items",
    "additionalProperties",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
)
_TOOL_KEYS = {"input_schema": "inputSchema", "output_schema": "outputSchema"}


def _schema_features(schema: object) -> Iterator[str]:
    """Each keyword a schema and its subschemas use, and each JSON type they name."""
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        yield key
        if key == "type":
            for name in value if isinstance(value, list) else [value]:
                yield f"type:{name}"
            if isinstance(value, list):
                yield "type:[list]"
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            for sub in value.values():
                yield from _schema_features(sub)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            for sub in value:
                yield from _schema_features(sub)
        elif key in _SCHEMA_ONES:
            for sub in value if isinstance(value, list) else [value]:
                yield from _schema_features(sub)


def _tools(source: Path) -> list[dict[str, Any]]:
    if source.suffix == ".json":
        data = json.loads(source.read_text(encoding="utf-8"))
        tools: list[dict[str, Any]] = data["tools"] if isinstance(data, dict) else data
        return tools
    from ruamel.yaml import YAML

    document: dict[str, Any] = YAML(typ="safe").load(source.read_text(encoding="utf-8"))
    return list(document["tools"])


def features(source: Path) -> frozenset[str]:
    """What a corpus input uses: tool keys (`tool:outputSchema`, `tool:icons`, ...), schema
    keywords and JSON types, in input and output schemas alike."""
    found: set[str] = set()
    for tool in _tools(source):
        for spelled, value in tool.items():
            key = _TOOL_KEYS.get(spelled, spelled)  # manifests spell the schema keys snake_case
            found.add(f"tool:{key}")
            if key in ("inputSchema", "outputSchema"):
                found.update(_schema_features(value))
    return frozenset(found)


def covering(cases: Sequence[tuple[str, Path]], extra: int) -> list[tuple[str, Path]]:
    """`cases` (id, input path) to run: all of them in a full run; otherwise a covering set,
    chosen greedily (most features not yet covered, then the smaller file), and `extra` more
    drawn with the sweep's seed; in corpus order."""
    if sweep.full_run():
        return list(cases)
    used = {name: features(path) for name, path in cases}
    sizes = {name: path.stat().st_size for name, path in cases}
    missing = frozenset().union(*used.values())
    chosen: set[str] = set()
    while missing:
        best = max(used, key=lambda name: (len(used[name] & missing), -sizes[name]))
        chosen.add(best)
        missing -= used[best]
    others = [name for name, _ in cases if name not in chosen]
    chosen.update(sweep.drawn(others, extra))
    return [(name, path) for name, path in cases if name in chosen]
