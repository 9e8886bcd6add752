"""JSON Schema regular expressions, read as ECMA-262 (the dialect the spec names), not as Python's.

`\\p{L}`, look-behinds and named groups `(?<n>…)` are valid in schemas written for JavaScript
servers; Python's `re` rejects or misreads some of them, and its `\\d` matches every Unicode
digit where ECMA-262's matches 0-9 only. The three keywords that evaluate regexes (`pattern`,
`patternProperties`, and `additionalProperties`, which depends on which keys the patterns
match) are therefore replaced in jsonschema's validators by versions using the `regress` engine
— or another matcher with the same verdicts (the server's, `bounded_regex`, cannot stall).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from .regex_worker import InvalidPattern, compile_pattern

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = ["InvalidPattern", "compile_pattern", "extra_keys", "is_regex", "search"]

Matcher = Callable[[str, str], bool]


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


def extra_keys(
    instance: Mapping[str, Any], schema: Mapping[str, Any], matcher: Matcher = search
) -> list[str]:
    """Keys of `instance` matched by neither `properties` nor `patternProperties`."""
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [
        key
        for key in instance
        if key not in properties and not any(matcher(p, key) for p in patterns)
    ]


def _keywords(matcher: Matcher) -> dict[str, Callable[..., Iterator[Any]]]:
    """The three keywords that evaluate regexes, each matching with `matcher`."""
    from jsonschema import ValidationError  # noqa: PLC0415  (kept off the import path)

    def pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "string") and not matcher(pattern, instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")

    def pattern_properties(
        validator: Any, patterns: Mapping[str, Any], instance: Any, schema: Any
    ) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        for pattern, subschema in patterns.items():
            for key, value in instance.items():
                if matcher(pattern, key):
                    yield from validator.descend(value, subschema, path=key, schema_path=pattern)

    def additional_properties(
        validator: Any, additional: Any, instance: Any, schema: Any
    ) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        extras = extra_keys(instance, schema, matcher)
        if validator.is_type(additional, "object"):
            for extra in extras:
                yield from validator.descend(instance[extra], additional, path=extra)
        elif additional is False and extras:
            listed = ", ".join(repr(extra) for extra in extras)
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(
                f"Additional properties are not allowed ({listed} {verb} unexpected)"
            )

    return {
        "pattern": pattern,
        "patternProperties": pattern_properties,
        "additionalProperties": additional_properties,
    }


@cache
def with_ecma_regex(cls: type[Validator], matcher: Matcher = search) -> type[Validator]:
    """`cls` with the three keywords that evaluate regexes running them as ECMA-262."""
    from jsonschema.validators import extend  # noqa: PLC0415  (kept off the import path)

    extended: type[Validator] = extend(cls, _keywords(matcher))  # type: ignore[no-untyped-call]
    return extended
