"""JSON Schema regular expressions, read as ECMA-262 (the dialect the spec names), not as Python's.

`\\p{L}`, look-behinds and named groups `(?<n>…)` are valid in schemas written for JavaScript
servers; Python's `re` rejects or misreads some of them, and its `\\d` matches every Unicode
digit where ECMA-262's matches 0-9 only. The three keywords that evaluate regexes (`pattern`,
`patternProperties`, and `additionalProperties`, which depends on which keys the patterns
match) are therefore replaced in jsonschema's validators by versions using the `regress` engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import regress

if TYPE_CHECKING:
    from jsonschema.protocols import Validator


class InvalidPattern(ValueError):
    """A pattern no ECMA-262 engine accepts."""


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> regress.Regex:
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


def is_regex(text: object) -> bool:
    """`format: regex`: true for a string an ECMA-262 engine compiles (and any non-string)."""
    if not isinstance(text, str):
        return True
    try:
        compile_pattern(text)
    except InvalidPattern:
        return False
    return True


def search(pattern: str, text: str) -> bool:
    """True when `pattern` matches anywhere in `text` (patterns are not anchored)."""
    return compile_pattern(pattern).find(text) is not None


def extra_keys(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """Keys of `instance` matched by neither `properties` nor `patternProperties`."""
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [
        key
        for key in instance
        if key not in properties and not any(search(p, key) for p in patterns)
    ]


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema import ValidationError  # noqa: PLC0415  (kept off the import path)

    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    from jsonschema import ValidationError  # noqa: PLC0415  (kept off the import path)

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
    from jsonschema.validators import extend  # noqa: PLC0415  (kept off the import path)

    extended: type[Validator] = extend(  # type: ignore[no-untyped-call]
        cls,
        {
            "pattern": _pattern,
            "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
        },
    )
    return extended
