"""Schemas where `unevaluatedProperties` / `unevaluatedItems` depend on what a regex matched, and
a reference verdict for them that owes nothing to the runtime's regex plumbing.

The schemas nest `patternProperties`, `pattern`, `propertyNames`, `prefixItems` and `contains`
in `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas` and `$ref`, under
an `unevaluatedProperties` or `unevaluatedItems`, with patterns whose ECMA-262 and Python
readings differ (`\\d`, `\\w`, `\\s`, `.`, `$` before a final newline, `\\p{L}`).

The reference (`literal_verdict`) asks regress, the ECMA-262 engine, only whether each pattern
matches each string of the instance; it then replaces every pattern of the schema by the
alternation of exactly those strings, escaped, and lets python `jsonschema`, unmodified, judge
the instance against that schema: on the instance at hand the two schemas evaluate the same
keys and items, whatever engine reads them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators

from mcpgen.runtime.validation.regex_worker import InvalidPattern, compile_pattern
from tests.differential.regex_samples import ALPHABET

DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema"
# Patterns whose ECMA-262 and Python readings part on some of `KEYS`.
PATTERNS = (
    r"^\d+$",
    r"^\D$",
    r"^\w+$",
    r"^\W$",
    r"^\s$",
    r"^\S+$",
    r"^.$",
    r"^a$",
    r"^$",
    r"^[a-z]+$",
    r"\bé",
    r"^[^\d]$",
    r"^\p{L}+$",
    r"^[^]$",
    r"^\cJ$",
    r"^x$|^y$",
    r"(?<!a)b",
)
KEYS = (
    "1",
    "\u0663",
    "\uff11",
    "\U0001d7d9",
    "a",
    "A",
    "b",
    "ab",
    "x",
    "y",
    "\u00e9",
    "\u00df",
    "\u212a",
    "_",
    "",
    " ",
    "\n",
    "a\n",
    "1\n",
    "\r",
    "\ufeff",
    "\u00a0",
    "\u2028",
    "\x1c",
    "\U0001f600",
)
_NAMING = frozenset({"properties", "$defs", "definitions", "dependentSchemas"})
_LITERALS = frozenset({"const", "enum", "default", "examples"})


def _keys() -> st.SearchStrategy[str]:
    return st.sampled_from(KEYS) | st.text(st.sampled_from(ALPHABET), max_size=3)


def _value_schemas() -> st.SearchStrategy[Any]:
    return st.sampled_from([{}, True, False, {"type": "integer"}, {"type": "string"}])


def _string_schemas() -> st.SearchStrategy[Any]:
    return st.sampled_from(PATTERNS).map(lambda p: {"pattern": p}) | st.sampled_from(
        [{}, {"type": "string"}, {"not": {"pattern": r"^\d$"}}]
    )


def _object_leaves(nested_unevaluated: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """One schema object evaluating keys by itself."""
    return st.one_of(
        st.dictionaries(st.sampled_from(PATTERNS), _value_schemas(), min_size=1, max_size=2).map(
            lambda patterns: {"patternProperties": patterns}
        ),
        st.dictionaries(_keys(), _value_schemas(), min_size=1, max_size=2).map(
            lambda named: {"properties": named}
        ),
        _string_schemas().map(lambda names: {"propertyNames": names}),
        st.sampled_from([True, False]).map(lambda extra: {"additionalProperties": extra}),
        nested_unevaluated.map(lambda rest: {"unevaluatedProperties": rest}),
        st.just({"$ref": "#/$defs/keyed"}),
    )


def _combined(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    lists = st.lists(children, min_size=1, max_size=3)
    return st.one_of(
        st.tuples(st.sampled_from(["allOf", "anyOf", "oneOf"]), lists).map(lambda t: {t[0]: t[1]}),
        children.map(lambda child: {"not": child}),
        st.tuples(children, children, children).map(
            lambda t: {"if": t[0], "then": t[1], "else": t[2]}
        ),
        st.tuples(_keys(), children).map(lambda t: {"dependentSchemas": {t[0]: t[1]}}),
        st.tuples(children, children).map(lambda t: {**t[0], "allOf": [t[1]]}),
    )


def object_schemas(draft_2019: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    """An object schema ending in `unevaluatedProperties`, its keys evaluated by nested
    applicators. Draft 2019-09 gets boolean `unevaluatedProperties` below the root only:
    jsonschema's own 2019-09 walk misreads a schema there (it refuses too much)."""
    nested = st.booleans() if draft_2019 else st.booleans() | _value_schemas()
    body = st.recursive(_object_leaves(nested), _combined, max_leaves=5)
    # Without any `patternProperties`, jsonschema-rs judges (with ECMA-262 `pattern`s).
    keyed = st.dictionaries(
        st.sampled_from(PATTERNS), _value_schemas(), min_size=1, max_size=2
    ).map(lambda patterns: {"patternProperties": patterns}) | _string_schemas().map(
        lambda names: {"propertyNames": names}
    )
    last = st.sampled_from([False, {"type": "integer"}, {"type": "string", "pattern": r"^\d$"}])

    def root(parts: tuple[Any, Any, Any]) -> dict[str, Any]:
        inner, definition, unevaluated = parts
        schema = {"type": "object", "allOf": [inner], "unevaluatedProperties": unevaluated}
        schema["$defs"] = {"keyed": definition}
        return {"$schema": DRAFT_2019, **schema} if draft_2019 else schema

    return st.tuples(body, keyed, last).map(root)


def objects() -> st.SearchStrategy[dict[str, Any]]:
    values = st.sampled_from([1, "x", "1", "\u0663", None])
    return st.dictionaries(_keys(), values, max_size=4)


def _item_leaves() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(_string_schemas(), min_size=1, max_size=3).map(lambda p: {"prefixItems": p}),
        _string_schemas().map(lambda items: {"items": items}),
        _string_schemas().map(lambda wanted: {"contains": wanted}),
        _string_schemas().map(lambda rest: {"unevaluatedItems": rest}),
    )


def array_schemas() -> st.SearchStrategy[dict[str, Any]]:
    """An array schema ending in `unevaluatedItems`, its items evaluated by nested applicators."""
    body = st.recursive(_item_leaves(), _combined, max_leaves=5)
    last = st.sampled_from([False, {"pattern": r"^\w$"}, {"type": "integer"}])
    return st.tuples(body, last).map(
        lambda t: {"type": "array", "allOf": [t[0]], "unevaluatedItems": t[1]}
    )


def arrays() -> st.SearchStrategy[list[Any]]:
    return st.lists(_keys() | st.just(1), max_size=4)


def _strings(instance: Any) -> Iterator[str]:
    """Every string a pattern of the schema may be matched against: keys and string values."""
    if isinstance(instance, str):
        yield instance
    elif isinstance(instance, Mapping):
        for key, value in instance.items():
            yield key
            yield from _strings(value)
    elif isinstance(instance, list):
        for item in instance:
            yield from _strings(item)


def _literal(pattern: str, strings: set[str], serial: int) -> str:
    """A Python regex matching exactly those of `strings` regress finds `pattern` in.

    The serial, in a comment, keeps two patterns that match the same strings apart as keys."""
    found = sorted(text for text in strings if compile_pattern(pattern).find(text) is not None)
    either = "|".join(re.escape(text) for text in found) if found else "(?!)"
    return f"(?#{serial})\\A(?:{either})\\Z"


class _Literalizer:
    def __init__(self, strings: set[str]) -> None:
        self._strings = strings
        self._serial = 0

    def literal(self, pattern: str) -> str:
        self._serial += 1
        return _literal(pattern, self._strings, self._serial)

    def schema(self, schema: Any) -> Any:
        if isinstance(schema, list):
            return [self.schema(item) for item in schema]
        if not isinstance(schema, Mapping):
            return schema
        rewritten: dict[str, Any] = {}
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                rewritten[key] = self.literal(value)
            elif key == "patternProperties" and isinstance(value, Mapping):
                rewritten[key] = {self.literal(p): self.schema(s) for p, s in value.items()}
            elif key in _NAMING and isinstance(value, Mapping):
                rewritten[key] = {name: self.schema(s) for name, s in value.items()}
            elif key in _LITERALS:
                rewritten[key] = value
            else:
                rewritten[key] = self.schema(value)
        return rewritten


def literal_verdict(schema: Mapping[str, Any], instance: Any) -> bool:
    """True when `schema` accepts `instance` with its regexes read as ECMA-262; False when it
    refuses, or when a pattern is not ECMA-262 (the schema cannot judge: a server refuses)."""
    try:
        literal = _Literalizer(set(_strings(instance))).schema(schema)
    except InvalidPattern:
        return False
    cls = validators.validator_for(literal, default=Draft202012Validator)
    try:
        return bool(cls(literal).is_valid(instance))
    except Exception:
        return False  # the schema cannot judge the instance: a server refuses
