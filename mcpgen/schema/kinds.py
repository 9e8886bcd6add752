"""What values a schema admits, by type and enum alone: the part of comparing two schemas
that both the handler's view (`generation.schema_diff`) and the client's (`contract`) share.
"""

from __future__ import annotations

import json
from typing import Any

JSON = dict[str, Any]


def _as_schema(value: Any) -> JSON:
    return value if isinstance(value, dict) else {}


def enum_values(schema: JSON) -> list[str] | None:
    """The values an `enum`/`const` schema allows (as JSON text), None when it has neither."""
    if "const" in schema:
        return [json.dumps(schema["const"], sort_keys=True)]
    if isinstance(schema.get("enum"), list):
        return [json.dumps(v, sort_keys=True) for v in schema["enum"]]
    return None


_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "object"
    return _JSON_TYPES.get(type(value), "unknown")


def _types(schema: JSON) -> frozenset[str] | None:
    """The JSON types a schema admits, by its `type`, `$ref` (a name of its own) and unions;
    None: any value (it says nothing about types)."""
    if "$ref" in schema:
        return frozenset({"$ref " + str(schema["$ref"])})
    for combinator in ("oneOf", "anyOf"):
        members = schema.get(combinator)
        if isinstance(members, list):
            found = [_types(_as_schema(m)) for m in members]
            if any(f is None for f in found):
                return None
            return frozenset(t for f in found if f is not None for t in f)
    kind = schema.get("type")
    kinds = {kind} if isinstance(kind, str) else set(kind) if isinstance(kind, list) else set()
    if not kinds and "properties" in schema:
        kinds = {"object"}
    if not kinds:
        return None
    return frozenset(kinds | ({"integer"} if "number" in kinds else set()))


def widens(old: JSON, new: JSON) -> bool:
    """Whether every value of `old`'s type(s) is one `new` accepts too, as far as types,
    enums and unions tell (constraints are not compared)."""
    new_values, old_values = enum_values(new), enum_values(old)
    if new_values is not None:
        return old_values is not None and set(old_values) <= set(new_values)
    new_types = _types(new)
    if new_types is None:
        return True
    if old_values is not None:
        return all(_json_type(json.loads(v)) in new_types for v in old_values)
    old_types = _types(old)
    return old_types is not None and old_types <= new_types
