"""Valid arguments for a tool, built from its input schema: the smallest instance a careful
caller would send (required properties only, the schema's own example, default or first enum
value where it gives one), checked against the schema; hypothesis-jsonschema finds one when
the simple builder's guess does not validate.

Deterministic, so a failing call reproduces with the same arguments.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from jsonschema import Draft202012Validator

JSON = Any
_DEPTH = 12

FORMATS = {
    "date-time": "2024-02-01T09:00:00Z",
    "date": "2024-02-01",
    "time": "09:00:00Z",
    "email": "octocat@example.com",
    "uri": "https://example.com/a",
    "url": "https://example.com/a",
    "uri-reference": "https://example.com/a",
    "uuid": "1725ff48-ab45-4bb5-9d02-88745177dedb",
    "ipv4": "127.0.0.1",
    "ipv6": "::1",
    "hostname": "example.com",
    "int32": "1",
    "int64": "1",
    "byte": "aGVsbG8=",
    "binary": "hello",
}
_PATTERN_GUESSES = ("example", "abc", "a", "A1", "1", "123", "2024-02-01", "a-b", "USD", "usd")


class NoInstance(Exception):
    """No valid instance was found for a schema."""


def _resolve(schema: JSON, root: JSON) -> JSON:
    """Follow a local `$ref` (`#/...`), keeping sibling keywords."""
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < _DEPTH:
        node: JSON = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            if part:
                node = node[part.replace("~1", "/").replace("~0", "~")]
        schema = {**node, **{k: v for k, v in schema.items() if k != "$ref"}}
        seen += 1
    return schema


def _string(schema: JSON) -> str:
    pattern = schema.get("pattern")
    text = FORMATS.get(schema.get("format", ""), "example")
    if pattern:
        text = next(
            (g for g in (text, *_PATTERN_GUESSES) if re.search(pattern, g)), None
        ) or _matching(pattern)
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    if len(text) < low:
        text = text + "a" * (low - len(text))
    if high is not None and len(text) > high:
        text = text[:high]
    return text


def _matching(pattern: str) -> str:
    """The smallest string hypothesis finds for a pattern no simple guess matches."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis import strategies as st

    try:
        found: str = find(
            st.from_regex(pattern),
            lambda _: True,
            settings=settings(
                database=None, derandomize=True, suppress_health_check=list(HealthCheck)
            ),
        )
    except Exception:  # the pattern is beyond hypothesis: the schema check decides
        return "example"
    return found


def _number(schema: JSON, integer: bool) -> int | float:
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    value: float = 1
    if low is not None:
        value = low + (1 if "exclusiveMinimum" in schema and "minimum" not in schema else 0)
    if high is not None and value > high:
        value = high - (1 if "exclusiveMaximum" in schema and "maximum" not in schema else 0)
    step = schema.get("multipleOf")
    if step:
        value = (value // step + (1 if value % step else 0)) * step
    return int(value) if integer else value


def _first_type(schema: JSON) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        return kinds[0] if kinds else "null"
    if kind is None and "properties" in schema:
        return "object"
    return kind if isinstance(kind, str) else None


def _given(schema: JSON) -> tuple[bool, JSON]:
    """The value the schema itself suggests (const, default, example, enum), if any."""
    for key in ("const", "default", "example"):
        if key in schema:
            return True, schema[key]
    if schema.get("examples"):
        return True, schema["examples"][0]
    if schema.get("enum"):
        return True, next((v for v in schema["enum"] if v is not None), schema["enum"][0])
    return False, None


def _merged(outer: JSON, branch: JSON) -> JSON:
    """A branch of a oneOf/anyOf with the keywords beside it (`{required: [state]}` next to
    the object's properties is an object with a required `state`)."""
    merged = {**outer, **branch}
    merged["properties"] = {**outer.get("properties", {}), **branch.get("properties", {})}
    required = [*outer.get("required", []), *branch.get("required", [])]
    merged["required"] = list(dict.fromkeys(required))
    return merged


def _combined(schema: JSON, root: JSON, depth: int) -> tuple[bool, JSON]:
    """An instance of the first non-null branch of oneOf/anyOf, or of every allOf part."""
    for key in ("oneOf", "anyOf"):
        options = [_resolve(o, root) for o in schema.get(key, [])]
        options = [o for o in options if o.get("type") != "null"]
        if options:
            rest = {k: v for k, v in schema.items() if k != key}
            return True, build(_merged(rest, options[0]), root, depth + 1)
    if not schema.get("allOf"):
        return False, None
    return True, build(_all_of_merged(schema, root), root, depth + 1)


def _all_of_merged(schema: JSON, root: JSON, depth: int = 0) -> JSON:
    """An allOf and the keywords beside it as one schema: properties and required lists
    joined, any other keyword from the first place that gives it."""
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    for listed in schema.get("allOf", []):
        part = _resolve(listed, root)
        if depth < _DEPTH and isinstance(part, dict) and "allOf" in part:
            part = _all_of_merged(part, root, depth + 1)
        if isinstance(part, dict):
            for key, value in part.items():
                merged.setdefault(key, value)
            merged = _merged(merged, {k: part[k] for k in ("properties", "required") if k in part})
    return merged


def build(schema: JSON, root: JSON | None = None, depth: int = 0) -> JSON:
    """The simple builder's guess for `schema` (not yet checked)."""
    root = schema if root is None else root
    schema = _resolve(schema, root)
    if not isinstance(schema, dict) or depth > _DEPTH:
        return {}
    found, value = _given(schema)
    if not found:
        found, value = _combined(schema, root, depth)
    return value if found else _typed(schema, root, depth)


def _typed(schema: JSON, root: JSON, depth: int) -> JSON:
    kind = _first_type(schema)
    if kind == "string":
        return _string(schema)
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer")
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if kind == "array":
        item = build(schema.get("items", {}), root, depth + 1)
        count = max(1, schema.get("minItems", 1))
        if schema.get("maxItems") == 0:
            count = 0
        return [item] * count if not schema.get("uniqueItems") or count <= 1 else [item]
    properties = schema.get("properties", {})
    return {
        name: build(properties.get(name, {}), root, depth + 1)
        for name in schema.get("required", [])
    }


def valid_instance(schema: JSON) -> JSON:
    """A deterministic instance `schema` accepts (raises NoInstance when none is found)."""
    validator = Draft202012Validator(schema)
    guess = build(schema)
    if validator.is_valid(guess):
        return guess
    if isinstance(guess, dict):
        guess = _repaired(schema, guess)
        if validator.is_valid(guess):
            return guess
    return _searched(schema, validator)


def _repaired(schema: JSON, guess: dict[str, JSON]) -> dict[str, JSON]:
    """The guess with each property the schema rejects searched for on its own, so one hard
    property does not hand the whole object (path parameters included) to the search."""
    definitions = {k: schema[k] for k in ("$defs", "definitions") if k in schema}
    repaired = dict(guess)
    for name, value in guess.items():
        part = schema.get("properties", {}).get(name)
        if not isinstance(part, dict):
            continue
        alone = {**part, **definitions}
        checker = Draft202012Validator(alone)
        if not checker.is_valid(value):
            with contextlib.suppress(NoInstance):
                repaired[name] = _searched(alone, checker)
    return repaired


def _searched(schema: JSON, validator: Draft202012Validator) -> JSON:
    """hypothesis-jsonschema's smallest instance (derandomised, no example database)."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis_jsonschema import from_schema

    try:
        found = find(
            from_schema(schema),
            validator.is_valid,
            settings=settings(
                database=None,
                derandomize=True,
                max_examples=50,
                suppress_health_check=list(HealthCheck),
            ),
        )
    except Exception as error:  # hypothesis raises several kinds when it gives up
        raise NoInstance(f"no valid instance found: {error}") from error
    return found
