# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Verdicts on plain schemas without a JSON Schema engine.

Most tool schemas are a few typed properties: `type`, `properties`, `required`,
`additionalProperties`, an `enum` of strings, numeric and length bounds, `items`, a string's
`pattern` (matched by the engine every verdict uses, `bounded_regex`). A schema
made only of such keywords (and of annotations no verdict reads: `description`, `default`,
`examples`, `title`, `format`, which the reference does not assert) is compiled here into
plain Python closures, once, so a server whose schemas are all plain never loads
jsonschema-rs: 4 MB of native code, and as much again once it has compiled a schema.

Anything else (another keyword, `$ref`, `patternProperties`, an `enum` of numbers, whose
equality rules differ between engines, a `$schema` other than drafts 6, 7, 2019-09 and 2020-12) and
`compile_plain` returns None: the engines of `schema_check` judge that schema. On the keywords
accepted here those drafts agree, and the verdicts are the reference's (python
`jsonschema`): the corpus-wide differential test of the runtime's verdicts proves it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sized
from typing import Any, cast

Predicate = Callable[[Any], bool]

_DRAFTS = frozenset(
    f"{scheme}://json-schema.org/{draft}/schema{end}"
    for scheme in ("http", "https")
    for draft in ("draft-06", "draft-07", "draft/2019-09", "draft/2020-12")
    for end in ("", "#")
)
_ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment", "format", "deprecated"}
    | {"readOnly", "writeOnly"}
)
_TYPES: dict[str, Predicate] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    # JSON has one number type: 1.0 is an integer, and a boolean is never a number.
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
}


class NotPlain(Exception):
    """The schema uses something this module does not judge."""


def compile_plain(schema: object) -> Predicate | None:
    """A predicate equal to the reference's verdict on `schema`, or None if it is not plain."""
    if isinstance(schema, Mapping) and "$schema" in schema:
        if schema["$schema"] not in _DRAFTS:
            return None
        schema = {k: v for k, v in schema.items() if k != "$schema"}
    try:
        return _compile(schema)
    except NotPlain:
        return None


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _count(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    raise NotPlain


def _compile(schema: object) -> Predicate:
    if schema is True:
        return lambda _: True
    if schema is False:
        return lambda _: False
    if not isinstance(schema, Mapping):
        raise NotPlain
    checks: list[Predicate] = []
    for key, value in schema.items():
        if key in _ANNOTATIONS:
            continue
        build = _KEYWORDS.get(key)
        if build is None:
            raise NotPlain
        checks.append(build(value, schema))
    checks = [c for c in checks if c is not _ALWAYS]
    if not checks:
        return _ALWAYS
    if len(checks) == 1:
        return checks[0]

    def every(v: object) -> bool:
        for check in checks:
            if not check(v):
                return False
        return True

    return every


def _ALWAYS(_: object) -> bool:
    return True


def _type(value: object, _: Mapping[str, Any]) -> Predicate:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(n in _TYPES for n in names):
        raise NotPlain
    tests = [_TYPES[n] for n in names]
    if len(tests) == 1:
        return tests[0]

    def some(v: object) -> bool:
        for test in tests:
            if test(v):
                return True
        return False

    return some


def _choices(value: object) -> frozenset[str | None]:
    if not isinstance(value, list) or not all(isinstance(c, str) or c is None for c in value):
        raise NotPlain  # numbers, booleans, objects: equality rules differ between engines
    return frozenset(value)


def _enum(value: object, _: Mapping[str, Any]) -> Predicate:
    allowed = _choices(value)
    return lambda v: (v is None or isinstance(v, str)) and v in allowed


def _const(value: object, _: Mapping[str, Any]) -> Predicate:
    (only,) = _choices([value])
    return lambda v: (v is None or isinstance(v, str)) and v == only


def _bound(compare: Callable[[Any, Any], bool]) -> Callable[[object, Mapping[str, Any]], Predicate]:
    def build(limit: object, _: Mapping[str, Any]) -> Predicate:
        if not _is_number(limit):
            raise NotPlain
        return lambda v: not _is_number(v) or compare(v, limit)

    return build


def _length(compare: Callable[[int, int], bool], kind: type) -> Callable[..., Predicate]:
    def build(limit: object, _: Mapping[str, Any]) -> Predicate:
        count = _count(limit)
        return lambda v: not isinstance(v, kind) or compare(len(cast(Sized, v)), count)

    return build


def _pattern(value: object, _: Mapping[str, Any]) -> Predicate:
    """`pattern`, matched by the engine every verdict uses (`bounded_regex.search`: RE2 where
    it reads the pattern as ECMA-262 does, else a child process under the verdict's budget)."""
    if not isinstance(value, str):
        raise NotPlain
    from .regex_worker import compile_pattern, is_declared_valid  # noqa: PLC0415

    if not is_declared_valid(value):
        compile_pattern(value)  # an invalid pattern fails the build, not the first call

    def matches(v: object) -> bool:
        from .bounded_regex import search  # noqa: PLC0415  (RE2 loads with the first match)

        return not isinstance(v, str) or search(value, v)

    return matches


def _properties(value: object, _: Mapping[str, Any]) -> Predicate:
    if not isinstance(value, Mapping):
        raise NotPlain
    each = {str(name): _compile(sub) for name, sub in value.items()}
    checked = [(name, check) for name, check in each.items() if check is not _ALWAYS]

    def test(v: object) -> bool:
        if not isinstance(v, dict):
            return True
        for name, check in checked:
            if name in v and not check(v[name]):
                return False
        return True

    return test


def _required(value: object, _: Mapping[str, Any]) -> Predicate:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise NotPlain
    names = tuple(value)

    def test(v: object) -> bool:
        if isinstance(v, dict):
            for name in names:
                if name not in v:
                    return False
        return True

    return test


def _additional(value: object, schema: Mapping[str, Any]) -> Predicate:
    declared = schema.get("properties", {})
    if not isinstance(declared, Mapping):
        raise NotPlain
    known = frozenset(declared)
    check = _compile(value)
    if check is _ALWAYS:
        return _ALWAYS

    def test(v: object) -> bool:
        if not isinstance(v, dict):
            return True
        for key, item in v.items():
            if key not in known and not check(item):
                return False
        return True

    return test


def _items(value: object, _: Mapping[str, Any]) -> Predicate:
    if isinstance(value, list):
        raise NotPlain  # draft 7's tuple form: `prefixItems` in 2020-12
    check = _compile(value)

    def test(v: object) -> bool:
        if isinstance(v, list):
            for item in v:
                if not check(item):
                    return False
        return True

    return test


_KEYWORDS: dict[str, Callable[[Any, Mapping[str, Any]], Predicate]] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    # Failing exactly where the reference does (`v < minimum` fails), so a NaN, which
    # compares false every way, passes as it does there.
    "minimum": _bound(lambda v, limit: not v < limit),
    "maximum": _bound(lambda v, limit: not v > limit),
    "exclusiveMinimum": _bound(lambda v, limit: not v <= limit),
    "exclusiveMaximum": _bound(lambda v, limit: not v >= limit),
    "minLength": _length(lambda n, limit: n >= limit, str),  # code points, as len() counts
    "maxLength": _length(lambda n, limit: n <= limit, str),
    "pattern": _pattern,
    "minItems": _length(lambda n, limit: n >= limit, list),
    "maxItems": _length(lambda n, limit: n <= limit, list),
    "minProperties": _length(lambda n, limit: n >= limit, dict),
    "maxProperties": _length(lambda n, limit: n <= limit, dict),
    "properties": _properties,
    "required": _required,
    "additionalProperties": _additional,
    "items": _items,
}
