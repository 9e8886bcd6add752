"""Arguments to judge: valid instances of a tool's input schema, and near-valid ones.

A near-valid instance is a valid one changed in one place: a value of the wrong type, a
required key removed, an extra key, a number or length just out of range, a string that
breaks its pattern, or Unicode digits and letters where ASCII ones are expected (where
ECMA-262's `\\d` and `\\w` and Python's part ways), as values and as keys (which
`patternProperties`, `propertyNames` and `unevaluatedProperties` judge). Objects are found
through `properties`, `$ref`s and the branches of `allOf`, `anyOf`, `oneOf` and `if`.
Whether it is still valid is for the validators to say; the tests only demand that the
server's verdict equals the reference's.
"""

from __future__ import annotations

import json
import re
import warnings
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

VALID = "valid"
WRONG_TYPE = "wrong type"
MISSING_REQUIRED = "missing required key"
EXTRA_KEY = "extra key"
OUT_OF_RANGE = "out of range"
PATTERN_BREAK = "string breaking a pattern"
UNICODE = "Unicode digits and letters"
CATEGORIES = (VALID, WRONG_TYPE, MISSING_REQUIRED, EXTRA_KEY, OUT_OF_RANGE, PATTERN_BREAK, UNICODE)
# Unchanged instances that were not drawn as valid ones: a manifest's examples, or `{}`.
KNOWN_ARGUMENTS = "known arguments"
EMPTY_OBJECT = "empty object"

ONE_OF_EACH_TYPE: tuple[Any, ...] = (None, True, 0, 1.5, "x", [], {})
# Strings that break common patterns: empty, blank, punctuation, non-ASCII, long.
PATTERN_BREAKERS = ("", " ", "!", "x", "Ω", "a b", "a\nb", "A" * 300, "😀")
# Digits and letters outside ASCII: Arabic-Indic, fullwidth, Devanagari, mathematical digits;
# Greek, a ligature, a letter whose case mapping grows, a decomposed accent.
UNICODE_SAMPLES = (
    "\u0661\u0662\u0663",
    "\uff11\uff12",
    "\u096a\u0968",
    "\U0001d7d9\U0001d7da",
    "\u03a9\u03bc\u03ad\u03b3\u03b1",
    "\ufb01",
    "\u00df",
    "\u0130",
    "e\u0301",
    "\u0661",
)
# Keys on which ECMA-262 and Python regexes part: digits and word characters outside ASCII,
# a final newline (Python's `$` matches before it), whitespace only one of them knows.
KEY_SAMPLES = (*UNICODE_SAMPLES[:3], "\u00e9", "1\n", "\ufeff", "\x1c", "\u2028")
# Keywords whose subschemas apply to the same object as the schema holding them.
_IN_PLACE = ("allOf", "anyOf", "oneOf", "if", "then", "else")


@dataclass(frozen=True)
class Case:
    """One instance to judge, and how it was made."""

    category: str
    instance: Any


@dataclass(frozen=True)
class _Site:
    """An object inside the instance, with the schema that describes it."""

    value: dict[str, Any]
    schema: Mapping[str, Any]


def valid_instances(schema: Mapping[str, Any]) -> st.SearchStrategy[Any] | None:
    """hypothesis-jsonschema's instances of `schema`, drawn from `generation_schema(schema)`;
    None where it cannot read that schema or finds it unsatisfiable."""
    from hypothesis_jsonschema import from_schema  # noqa: PLC0415  (slow import, test time)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. formats it does not know
            strategy = from_schema(generation_schema(schema))
            # Reading the schema happens on first use: here, not inside a test's draw.
            return None if strategy.is_empty else strategy
    except Exception:
        return None


# One base instance in this many is a known one, even where valid ones can be drawn.
KNOWN_SHARE = 5
# How often a recursive `$ref` is followed inside itself before generation stops there.
RECURSION_DEPTH = 2
# Past this many characters an inlined schema is inlined again with recursion cut at once:
# several recursive references multiply each other's copies.
INLINED_SIZE_LIMIT = 200_000
# Bounds on what hypothesis draws (not on what is judged: mutations and the validators see
# the real schema): arrays of at most this many items, and free-form values (`{}`) drawn as
# scalars, so that one draw is milliseconds, not seconds.
GENERATED_ITEMS = 3
SCALARS = {"type": ["null", "boolean", "integer", "number", "string"]}


def generation_schema(schema: Mapping[str, Any]) -> Any:
    """The schema hypothesis-jsonschema draws valid instances from.

    It is `schema` with its local `$ref`s inlined (hypothesis-jsonschema cannot draw a
    recursive one: a recursive reference is followed `RECURSION_DEPTH` times, then replaced
    by `false`, which leaves an optional property out and an array empty), references it
    cannot follow dropped, the patterns Python cannot read left out, and sizes bounded.
    """
    inlined = _inlined(schema, schema, (), RECURSION_DEPTH)
    if len(json.dumps(inlined, default=str)) > INLINED_SIZE_LIMIT:
        inlined = _inlined(schema, schema, (), 0)
    return _bounded(_python_readable(inlined))


def _target(root: Mapping[str, Any], ref: str) -> Any:
    """The schema a local JSON-pointer `$ref` names, or None."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    target: Any = root
    for escaped in ref[2:].split("/"):
        part = escaped.replace("~1", "/").replace("~0", "~")
        if isinstance(target, list) and part.isdigit() and int(part) < len(target):
            target = target[int(part)]
        elif isinstance(target, Mapping) and part in target:
            target = target[part]
        else:
            return None
    return target


def _inlined(root: Mapping[str, Any], schema: Any, followed: tuple[str, ...], depth: int) -> Any:
    """`schema` with its `$ref`s replaced by their targets (see `generation_schema`)."""
    if isinstance(schema, list):
        return [_inlined(root, item, followed, depth) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("$defs", "definitions", "$ref", "$dynamicRef", "$recursiveRef"):
            continue  # reached through the references, or cannot be followed here
        if key in _VALUES:
            result[key] = value
        elif key in _NAMING_KEYWORDS and isinstance(value, Mapping):
            result[key] = {name: _inlined(root, s, followed, depth) for name, s in value.items()}
        else:
            result[key] = _inlined(root, value, followed, depth)
    ref = schema.get("$ref")
    if not isinstance(ref, str) or (target := _target(root, ref)) is None:
        return result
    return _with_target(result, _referenced(root, ref, target, followed, depth))


def _referenced(
    root: Mapping[str, Any], ref: str, target: Any, followed: tuple[str, ...], depth: int
) -> Any:
    if ref in followed and followed.count(ref) >= depth:
        return False  # the recursion stops here
    return _inlined(root, target, (*followed, ref), depth)


def _with_target(siblings: dict[str, Any], target: Any) -> Any:
    """A `$ref`'s target in place of the `$ref`, beside the keywords next to it."""
    if not siblings:
        return target
    return {**siblings, "allOf": [*siblings.get("allOf", []), target]}


def _bounded(schema: Any, names_of: str | None = None) -> Any:
    """`schema` with array sizes capped at `GENERATED_ITEMS`, and free-form values (`{}`, an
    object's unlisted properties, an array's unlisted items) scalars."""
    if isinstance(schema, list):
        return [_bounded(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    if names_of is not None:
        return {name: _bounded(value) for name, value in schema.items()}
    if set(schema) <= _WORDS:
        return {**schema, **SCALARS}
    bounded = {
        key: value if key in _VALUES else _bounded(value, key if key in _NAMING_KEYWORDS else None)
        for key, value in schema.items()
    }
    types = bounded.get("type")
    types = set(types) if isinstance(types, list) else {types}
    # Subschemas applying in place may list properties or items of their own.
    alone = not _APPLIED_IN_PLACE & set(bounded)
    if alone and ("object" in types or "properties" in bounded):
        bounded.setdefault("additionalProperties", SCALARS)
    if "array" in types or "items" in bounded:
        if alone and not {"items", "prefixItems", "additionalItems"} & set(bounded):
            bounded["items"] = SCALARS
        least = bounded.get("minItems", 0)
        most = bounded.get("maxItems", GENERATED_ITEMS)
        if _is_count(least) and _is_count(most):
            bounded["maxItems"] = max(least, min(most, GENERATED_ITEMS))
    return bounded


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Keywords that say nothing about a value's shape, and those whose value is data.
_WORDS = frozenset({"title", "description", "$comment", "deprecated", "readOnly", "writeOnly"})
_VALUES = frozenset({"const", "enum", "default", "examples"})
_APPLIED_IN_PLACE = frozenset(
    {*_IN_PLACE, "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems"}
)


# Keywords whose value maps names (of properties, definitions) to schemas, not keywords.
_NAMING_KEYWORDS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)


def _python_readable(schema: Any, names_of: str | None = None) -> Any:
    """`schema` without the regexes Python's `re` cannot compile (`\\p{L}`, ...).

    hypothesis-jsonschema generates with `re`; where it cannot read a pattern it filters
    arbitrary strings by it, which never succeeds. The instances drawn without the pattern
    are still judged, by both validators, against the real schema. `names_of` is the
    keyword whose value `schema` is when its keys are names, not keywords.
    """
    if isinstance(schema, list):
        return [_python_readable(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    readable: dict[str, Any] = {}
    for key, value in schema.items():
        if names_of is not None:
            if names_of != "patternProperties" or _compiles(key):
                readable[key] = _python_readable(value)
        elif key == "pattern" and isinstance(value, str) and not _compiles(value):
            continue
        else:
            readable[key] = _python_readable(value, key if key in _NAMING_KEYWORDS else None)
    return readable


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def cases(schema: Mapping[str, Any], known: Sequence[Any] = ()) -> st.SearchStrategy[Case]:
    """Valid instances, and instances one mutation away from valid ones.

    Where hypothesis-jsonschema cannot draw from the schema, the `known` instances (a
    manifest's examples), or else the empty object, are the ones mutated.
    """
    valid = valid_instances(schema)
    fallback = st.sampled_from(list(known)) if known else st.just({})
    unchanged = KNOWN_ARGUMENTS if known else EMPTY_OBJECT
    # hypothesis's first draw is its simplest (the first category listed): a rotation that
    # depends on the schema spreads those first draws over all categories.
    start = zlib.crc32(json.dumps(schema, sort_keys=True, default=str).encode()) % len(CATEGORIES)
    order = CATEGORIES[start:] + CATEGORIES[:start]

    @st.composite
    def draw(data: st.DrawFn) -> Case:
        instance, made = _base_instance(data, valid, fallback, unchanged)
        if not isinstance(instance, dict):
            return Case(made, instance)
        mutations = _mutations(schema, instance)
        category = data(st.sampled_from([c for c in order if c == VALID or c in mutations]))
        if category == VALID:
            return Case(made, instance)
        mutated = data(st.sampled_from(mutations[category]))
        return Case(category, mutated)

    return draw()


def _base_instance(
    data: st.DrawFn, valid: st.SearchStrategy[Any] | None, known: st.SearchStrategy[Any], made: str
) -> tuple[Any, str]:
    """A valid instance and VALID; one time in `KNOWN_SHARE` (and always where none can be
    drawn) a known one and `made`. Known instances also stand in where hypothesis-jsonschema
    fails on a schema it misreads (`max_size=0 < min_size=1`) or finds none: a draw that
    never passes its filters is discarded, and the known ones keep the test going."""
    if valid is not None and data(st.integers(0, KNOWN_SHARE - 1)) < KNOWN_SHARE - 1:
        try:
            return data(valid), VALID
        except (RecursionError, TypeError, ValueError):  # hypothesis's InvalidArgument too
            pass
    return data(known), made


def _resolve(root: Mapping[str, Any], schema: Any, depth: int = 0) -> Any:
    """Follow a local `$ref` (`#/...`) to its target; anything else is returned as it is."""
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and depth < 20:
        ref: str = schema["$ref"]
        if not ref.startswith("#/"):
            return schema
        target: Any = root
        for escaped in ref[2:].split("/"):
            part = escaped.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, Mapping) or part not in target:
                return schema
            target = target[part]
        schema, depth = target, depth + 1
    return schema


def _sites(root: Mapping[str, Any], instance: dict[str, Any]) -> Iterator[_Site]:
    """Every object in `instance` with a schema that describes it (through `properties`,
    `$ref`s and in-place applicators)."""
    pending: list[tuple[dict[str, Any], Any]] = [(instance, root)]
    seen: set[tuple[int, int]] = set()  # a `$ref` cycle through `allOf` is visited once
    while pending:
        value, schema = pending.pop()
        schema = _resolve(root, schema)
        if not isinstance(schema, Mapping) or (id(value), id(schema)) in seen:
            continue
        seen.add((id(value), id(schema)))
        yield _Site(value, schema)
        pending += [(value, branch) for branch in _branches(schema)]
        properties = schema.get("properties")
        if not isinstance(properties, Mapping):
            continue
        for key, subschema in properties.items():
            if isinstance(value.get(key), dict):
                pending.append((value[key], subschema))


def _branches(schema: Mapping[str, Any]) -> list[Any]:
    """The subschemas that apply in place: `allOf`/`anyOf`/`oneOf` members, `if`, `then`, `else`."""
    found: list[Any] = []
    for keyword in _IN_PLACE:
        value = schema.get(keyword)
        found += value if isinstance(value, list) else [value] if value is not None else []
    return found


def _mutations(root: Mapping[str, Any], instance: dict[str, Any]) -> dict[str, list[Any]]:
    """Every one-place change of `instance`, by category (categories with none are left out)."""
    found: dict[str, list[Any]] = {}
    for site in _sites(root, instance):
        for category, change in _site_changes(root, site):
            before = dict(site.value)
            change(site.value)
            found.setdefault(category, []).append(_deep_copy(instance))
            site.value.clear()
            site.value.update(before)
    return found


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def _setter(key: str, new: Any) -> Any:
    def change(target: dict[str, Any]) -> None:
        target[key] = new

    return change


def _remover(key: str) -> Any:
    def change(target: dict[str, Any]) -> None:
        del target[key]

    return change


def _site_changes(root: Mapping[str, Any], site: _Site) -> Iterator[tuple[str, Any]]:
    for key, value in site.value.items():
        other = next(o for o in ONE_OF_EACH_TYPE if type(o) is not type(value))
        yield WRONG_TYPE, _setter(key, other)
    required = site.schema.get("required")
    for key in required if isinstance(required, list) else []:
        if key in site.value:
            yield MISSING_REQUIRED, _remover(key)
    yield EXTRA_KEY, _setter("unexpected_key", "x")
    for sample in KEY_SAMPLES:
        yield UNICODE, _setter(sample, "x")  # a key: patternProperties, propertyNames
    properties = site.schema.get("properties")
    for key, written in (properties if isinstance(properties, Mapping) else {}).items():
        subschema = _resolve(root, written)
        if isinstance(subschema, Mapping):
            yield from _value_changes(key, subschema)


def _value_changes(key: str, schema: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    for bound in _out_of_range(schema):
        yield OUT_OF_RANGE, _setter(key, bound)
    if isinstance(schema.get("pattern"), str):
        for text in PATTERN_BREAKERS:
            yield PATTERN_BREAK, _setter(key, text)
    if schema.get("type") == "string" or "pattern" in schema:
        for text in UNICODE_SAMPLES:
            yield UNICODE, _setter(key, text)


def _out_of_range(schema: Mapping[str, Any]) -> Iterator[Any]:
    """Values just past each bound the schema sets: numbers, string lengths, array sizes."""
    for keyword, step in (("minimum", -1), ("maximum", 1)):
        bound = schema.get(keyword)
        if isinstance(bound, (int, float)) and not isinstance(bound, bool):
            yield bound + step
            yield bound  # on the bound: out of range only where it is exclusive (draft-04)
    for keyword in ("exclusiveMinimum", "exclusiveMaximum"):
        bound = schema.get(keyword)
        if isinstance(bound, (int, float)) and not isinstance(bound, bool):
            yield bound
    for keyword, make in (("minLength", "a".__mul__), ("maxLength", "a".__mul__)):
        size = schema.get(keyword)
        if isinstance(size, int) and not isinstance(size, bool):
            yield make(max(size - 1, 0) if keyword == "minLength" else size + 1)
    for keyword in ("minItems", "maxItems"):
        size = schema.get(keyword)
        if isinstance(size, int) and not isinstance(size, bool):
            yield [None] * (max(size - 1, 0) if keyword == "minItems" else size + 1)
