"""Arguments that a tool's input schema rejects, for the generated 'bad input' tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcpgen.manifest.tool_schema import reference_validator

# For each JSON type, a value of another type.
_WRONG_VALUE: dict[str, Any] = {
    "string": 12345,
    "integer": "not a number",
    "number": "not a number",
    "boolean": "not a boolean",
    "array": "not an array",
    "object": "not an object",
    "null": "not null",
}


def _candidates(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if schema.get("required"):
        yield {}
    for name, sub in (schema.get("properties") or {}).items():
        kind = sub.get("type") if isinstance(sub, dict) else None
        if isinstance(kind, str) and kind in _WRONG_VALUE:
            yield {name: _WRONG_VALUE[kind]}
    if schema.get("additionalProperties") is False:
        yield {"mcpgen_unexpected_argument": 1}


def accepts(schema: dict[str, Any], arguments: dict[str, Any]) -> bool | None:
    """Whether `schema` accepts `arguments` (in the draft it names, ECMA-262 patterns, nothing
    fetched); None when that cannot be decided."""
    try:
        return bool(reference_validator(schema).is_valid(arguments))
    except Exception:
        return None


def invalid_arguments(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The first simple argument object the schema rejects, or None if none is found."""
    return next((c for c in _candidates(schema) if accepts(schema, c) is False), None)
