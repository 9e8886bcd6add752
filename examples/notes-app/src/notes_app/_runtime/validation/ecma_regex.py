# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""JSON Schema regular expressions, read as ECMA-262 (the dialect the spec names), not as Python's.

`\\p{L}`, look-behinds and named groups `(?<n>…)` are valid in schemas written for JavaScript
servers; Python's `re` rejects or misreads some of them, and its `\\d` matches every Unicode
digit where ECMA-262's matches 0-9 only. The keywords that evaluate regexes (`pattern`,
`patternProperties`, and the two that depend on which keys the patterns match:
`additionalProperties` and `unevaluatedProperties`) are therefore replaced in jsonschema's
validators by versions using the `regress` engine — or another matcher with the same verdicts
(the server's, `bounded_regex`, cannot stall). jsonschema's own `unevaluatedProperties` finds
the keys `patternProperties` evaluated with Python's `re`: it would accept `{"٣": 1}` against
`patternProperties: {"^\\d+$": {}}, unevaluatedProperties: false`.
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


def _evaluated_keys(
    validator: Any, instance: Mapping[str, Any], schema: Any, matcher: Matcher
) -> set[str]:
    """Keys of `instance` that `schema` and its in-place applicators evaluate, for
    `unevaluatedProperties`: jsonschema's own walk, with `patternProperties` matched by
    `matcher` instead of `re`."""
    if not isinstance(schema, Mapping):
        return set()  # a boolean schema evaluates no key
    return (
        _own_keys(validator, instance, schema, matcher)
        | _referenced_keys(validator, instance, schema, matcher)
        | _applied_keys(validator, instance, schema, matcher)
    )


def _accepts(validator: Any, instance: Any, schema: Any) -> bool:
    return next(validator.descend(instance, schema), None) is None


def _own_keys(
    validator: Any, instance: Mapping[str, Any], schema: Mapping[str, Any], matcher: Matcher
) -> set[str]:
    """The keys the schema's own property keywords evaluate."""
    found: set[str] = set()
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        found |= properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            subschema = schema[keyword]
            found |= {k for k, v in instance.items() if _accepts(validator, v, subschema)}
    patterns = schema.get("patternProperties")
    if isinstance(patterns, Mapping):
        found |= {key for key in instance if any(matcher(p, key) for p in patterns)}
    return found


def _referenced_keys(
    validator: Any, instance: Mapping[str, Any], schema: Mapping[str, Any], matcher: Matcher
) -> set[str]:
    """The keys the schemas the schema refers to evaluate (`$ref`, `$dynamicRef`, draft
    2019-09's `$recursiveRef`)."""
    from referencing.jsonschema import lookup_recursive_ref  # noqa: PLC0415

    resolved = [
        validator._resolver.lookup(schema[keyword])
        for keyword in ("$ref", "$dynamicRef")
        if isinstance(schema.get(keyword), str)
    ]
    if "$recursiveRef" in schema:
        resolved.append(lookup_recursive_ref(validator._resolver))
    found: set[str] = set()
    for target in resolved:
        inner = validator.evolve(schema=target.contents, _resolver=target.resolver)
        found |= _evaluated_keys(inner, instance, target.contents, matcher)
    return found


def _applied_keys(
    validator: Any, instance: Mapping[str, Any], schema: Mapping[str, Any], matcher: Matcher
) -> set[str]:
    """The keys evaluated by the subschemas that apply to the instance and accept it
    (`allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`)."""
    applied: list[Any] = []
    for keyword in ("allOf", "oneOf", "anyOf"):
        applied += [sub for sub in schema.get(keyword, ()) if _accepts(validator, instance, sub)]
    if "if" in schema:
        if _accepts(validator, instance, schema["if"]):
            applied += [schema["if"]] + ([schema["then"]] if "then" in schema else [])
        elif "else" in schema:
            applied.append(schema["else"])
    dependent = schema.get("dependentSchemas")
    if isinstance(dependent, Mapping):
        applied += [sub for key, sub in dependent.items() if key in instance]
    found: set[str] = set()
    for subschema in applied:
        found |= _evaluated_keys(validator, instance, subschema, matcher)
    return found


def _keywords(matcher: Matcher) -> dict[str, Callable[..., Iterator[Any]]]:
    """The keywords that evaluate regexes, each matching with `matcher`."""
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

    def unevaluated_properties(
        validator: Any, unevaluated: Any, instance: Any, schema: Any
    ) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        evaluated = _evaluated_keys(validator, instance, schema, matcher)
        refused = [
            key
            for key, value in instance.items()
            if key not in evaluated
            and next(validator.descend(value, unevaluated, path=key), None) is not None
        ]
        if not refused:
            return
        listed = ", ".join(repr(key) for key in sorted(refused))
        verb = "was" if len(refused) == 1 else "were"
        if unevaluated is False:
            yield ValidationError(
                f"Unevaluated properties are not allowed ({listed} {verb} unexpected)"
            )
        else:
            yield ValidationError(
                "Unevaluated properties are not valid under the given schema "
                f"({listed} {verb} unevaluated and invalid)"
            )

    return {
        "pattern": pattern,
        "patternProperties": pattern_properties,
        "additionalProperties": additional_properties,
        "unevaluatedProperties": unevaluated_properties,
    }


@cache
def with_ecma_regex(cls: type[Validator], matcher: Matcher = search) -> type[Validator]:
    """`cls` with the keywords that evaluate regexes running them as ECMA-262 (only those of
    its draft: a draft-07 schema's `unevaluatedProperties` stays an unknown word)."""
    from jsonschema.validators import extend  # noqa: PLC0415  (kept off the import path)

    own = cls.VALIDATORS
    keywords = {name: check for name, check in _keywords(matcher).items() if name in own}
    extended: type[Validator] = extend(cls, keywords)  # type: ignore[no-untyped-call]
    return extended
