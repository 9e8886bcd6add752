"""Walk JSON Schema documents keyword by keyword, so that a property *named* `pattern`
is never mistaken for the `pattern` keyword."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Keywords whose value is a map of name → subschema.
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
# Keywords whose value is a list of subschemas.
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
# Keywords whose value is one subschema (`items` may also be a list, in draft-07).
SCHEMA_SINGLES = (
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
)

Transform = Callable[[dict[str, Any]], dict[str, Any]]


def map_schema(schema: Any, transform: Transform) -> Any:
    """Return a copy of `schema` with `transform` applied to every (sub)schema, innermost first."""
    if not isinstance(schema, dict):
        return schema
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            result[key] = {name: map_schema(sub, transform) for name, sub in value.items()}
        elif key in SCHEMA_LISTS and isinstance(value, list):
            result[key] = [map_schema(sub, transform) for sub in value]
        elif key in SCHEMA_SINGLES:
            if isinstance(value, list):
                result[key] = [map_schema(sub, transform) for sub in value]
            else:
                result[key] = map_schema(value, transform)
        else:
            result[key] = value
    return transform(result)
