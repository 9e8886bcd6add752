"""Findings (a JSON path and a sentence) and the translation of jsonschema errors into them.

jsonschema's messages are written for programmers (`0.1 is not of type 'string'`,
`'x' is not valid under any of the given schemas`); these say what to change.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcpgen.errors import Level, suggest
from mcpgen.manifest.ecma_regex import InvalidPattern, extra_keys
from mcpgen.manifest.sourcemap import JsonPath

if TYPE_CHECKING:  # errors to describe come from jsonschema, imported only when there are some
    from jsonschema.exceptions import ValidationError

_JSON_TYPE_NAMES = {
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "a boolean",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


@dataclass(frozen=True)
class Finding:
    """One problem at a JSON path; the source map turns it into a located Diagnostic."""

    path: JsonPath
    message: str
    level: Level = "error"
    at_key: bool = False  # point at the key naming `path` rather than at its value


_PYTHON_KINDS = (
    (bool, "a boolean"),
    (int, "an integer"),
    (float, "a number"),
    (str, "a string"),
    (list, "a list"),
    (dict, "a mapping"),
)


def kind_of(value: Any) -> str:
    """The JSON kind of a Python value, with its article: `a string`, `null`."""
    # bool before int: True is an int to Python, not to JSON.
    return next((kind for cls, kind in _PYTHON_KINDS if isinstance(value, cls)), "null")


def show(value: Any, limit: int = 60) -> str:
    """A short JSON rendering of a value for a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def describe(
    error: ValidationError,
    prefix: JsonPath = (),
    scalar_text: Mapping[JsonPath, str] | None = None,
) -> list[Finding]:
    """Findings for one jsonschema error; `prefix` is where the validated instance sits."""
    path = (*prefix, *error.absolute_path)
    custom = error.schema.get("errorMessage") if isinstance(error.schema, dict) else None
    in_property_names = "propertyNames" in error.absolute_schema_path
    if in_property_names:
        # jsonschema reports a bad key at the object holding it; the key itself is clearer.
        path = (*path, str(error.instance))
    if isinstance(custom, str):
        shown = f": got {show(error.instance)}" if isinstance(error.instance, str) else ""
        return [Finding(path, f"{custom}{shown}", at_key=in_property_names)]
    keyword = error.validator
    if keyword == "required":
        return [Finding(path, f"missing required key '{_missing_key(error)}'")]
    if keyword == "additionalProperties" and error.validator_value is False:
        return _unknown_keys(error, path)
    if keyword in ("anyOf", "oneOf") and error.context:
        from jsonschema.exceptions import best_match

        best = best_match(error.context)
        return describe(best, prefix, scalar_text)
    return [Finding(path, _sentence(error, path, scalar_text or {}))]


def _missing_key(error: ValidationError) -> str:
    required: Any = error.validator_value
    instance: Any = error.instance
    missing = [key for key in required if key not in instance]
    return str(missing[0]) if missing else str(required)


def _unknown_keys(error: ValidationError, path: JsonPath) -> list[Finding]:
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    known = list(schema.get("properties", {}))
    instance: Any = error.instance
    try:
        extras = extra_keys(instance, schema)
    except InvalidPattern:  # reported where the pattern is written
        return []
    return [
        Finding((*path, key), f"unknown key '{key}'{suggest(key, known)}", at_key=True)
        for key in extras
    ]


def _type_sentence(expected: Any, value: Any, written: str | None) -> str:
    wanted = [expected] if isinstance(expected, str) else list(expected)
    names = " or ".join(_JSON_TYPE_NAMES.get(str(t), str(t)) for t in wanted)
    message = f"expected {names}, got {kind_of(value)}"
    if "string" in wanted and isinstance(value, int | float):  # bool is an int too
        message += f'; quote it: "{written or show(value)}"'
    return message


# Fixed sentences for (keyword, value of the keyword); jsonschema's own wording otherwise.
_FIXED = {
    ("minLength", 1): "must not be empty",
    ("minItems", 1): "must not be an empty list",
    ("uniqueItems", True): "must not contain the same item twice",
}


def _sentence(error: ValidationError, path: JsonPath, scalar_text: Mapping[JsonPath, str]) -> str:
    keyword: Any = error.validator
    expected: Any = error.validator_value
    value: Any = error.instance
    if keyword == "type":
        return _type_sentence(expected, value, scalar_text.get(path))
    if keyword == "pattern":
        return f"'{value}' does not match the pattern '{expected}'"
    if keyword == "const":
        return f"must be {show(expected)}, not {show(value)}"
    if keyword == "enum":
        options = ", ".join(show(option) for option in expected)
        hint = suggest(value, [str(o) for o in expected]) if isinstance(value, str) else ""
        return f"{show(value)} is not one of {options}{hint}"
    fixed = _FIXED.get((keyword, expected)) if isinstance(expected, int) else None
    return fixed or str(error.message)
