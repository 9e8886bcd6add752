"""JSON Schema regular expressions, read as ECMA-262 (the dialect the spec names), not as Python's.

`\\p{L}`, look-behinds and named groups `(?<n>…)` are valid in schemas written for JavaScript
servers; Python's `re` rejects or misreads some of them, so jsonschema's own `pattern` keywords
are replaced here by versions that use the `regress` engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from typing import Any

import regress
from jsonschema import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend


class InvalidPattern(ValueError):
    """A pattern no ECMA-262 engine accepts."""


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> Any:
    """Compile with Unicode semantics (as JSON Schema and Ajv do), else in legacy mode.

    Legacy mode accepts identity escapes such as `\\_` and `\\-` that generated schemas
    (zod, pydantic) often contain and that every JavaScript engine runs.
    """
    try:
        return regress.Regex(pattern, "u")
    except regress.RegressError as unicode_error:
        try:
            return regress.Regex(pattern)
        except regress.RegressError:
            raise InvalidPattern(str(unicode_error)) from None


def search(pattern: str, text: str) -> bool:
    """True when `pattern` matches anywhere in `text` (patterns are not anchored)."""
    return compile_pattern(pattern).find(text) is not None


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def extra_keys(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """Keys of `instance` matched by neither `properties` nor `patternProperties`."""
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [
        key
        for key in instance
        if key not in properties and not any(search(p, key) for p in patterns)
    ]


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    extras = extra_keys(instance, schema)
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif additional is False and extras:
        listed = ", ".join(repr(extra) for extra in extras)
        verb = "was" if len(extras) == 1 else "were"
        yield ValidationError(f"Additional properties are not allowed ({listed} {verb} unexpected)")


@cache
def with_ecma_regex(cls: type[Validator]) -> type[Validator]:
    """`cls` with the three keywords that evaluate regexes running them as ECMA-262."""
    extended: type[Validator] = extend(  # type: ignore[no-untyped-call]
        cls,
        {
            "pattern": _pattern,
            "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
        },
    )
    return extended
