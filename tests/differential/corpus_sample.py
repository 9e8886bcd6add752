"""How much a run judges: a seeded few corpus cases from every source, widened until every
JSON Schema keyword the corpus uses is among them, and a small hypothesis budget; every case
and the full budget in a full run (`tests/support/sweep.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import pytest
from hypothesis import HealthCheck, settings

from tests.support import sweep

# What every hypothesis search of the tier shares; each test sets its own budget,
# `@settings(SEARCH, max_examples=sweep.examples(sampled, full))`.
SEARCH = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))

# The keywords that decide a verdict, in any draft: a sample judges each one the corpus uses.
KEYWORDS = frozenset(
    {
        *("$ref", "$defs", "definitions", "$schema", "$id", "$anchor", "$dynamicRef", "format"),
        *("type", "enum", "const", "multipleOf", "minimum", "maximum"),
        *("exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern"),
        *("items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains"),
        *("minItems", "maxItems", "uniqueItems", "unevaluatedItems"),
        *("properties", "patternProperties", "additionalProperties", "propertyNames"),
        *("required", "dependentRequired", "dependencies", "dependentSchemas"),
        *("minProperties", "maxProperties", "unevaluatedProperties"),
        *("allOf", "anyOf", "oneOf", "not", "if", "then", "else"),
    }
)
_NAMING = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
_LITERALS = frozenset({"enum", "const", "default", "examples"})


class Case(Protocol):
    @property
    def source(self) -> str: ...

    @property
    def id(self) -> str: ...


class SchemaCase(Case, Protocol):
    @property
    def schema(self) -> Any: ...


C = TypeVar("C", bound=Case)
S = TypeVar("S", bound=SchemaCase)


def per_source(cases: Sequence[C], each: int) -> list[C]:
    """`each` cases of every source (all of a smaller one), drawn with the sweep's seed, in
    corpus order; every case in a full run."""
    by_source: dict[str, list[int]] = {}
    for index, case in enumerate(cases):
        by_source.setdefault(case.source, []).append(index)
    chosen = {index for group in by_source.values() for index in sweep.drawn(group, each)}
    return [case for index, case in enumerate(cases) if index in chosen]


def per_source_and_keyword(cases: Sequence[S], each: int) -> list[S]:
    """`per_source`, plus the first case holding each keyword the draw left out."""
    chosen = {id(case) for case in per_source(cases, each)}
    seen: set[str] = set()
    for case in cases:
        if id(case) in chosen:
            seen |= keywords(case.schema)
    for case in cases:
        missing = keywords(case.schema) - seen
        if missing:
            chosen.add(id(case))
            seen |= missing
    return [case for case in cases if id(case) in chosen]


def params(cases: Sequence[S]) -> list[Any]:
    """The cases' schemas as pytest parameters, each named by its case."""
    return [pytest.param(case.schema, id=case.id) for case in cases]


def keywords(schema: Any) -> set[str]:
    """The verdict keywords a schema uses, at any depth."""
    found: set[str] = set()
    pending = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key in KEYWORDS:
                    found.add(key)
                if key in _NAMING and isinstance(value, dict):
                    pending.extend(value.values())
                elif key not in _LITERALS:
                    pending.append(value)
    return found
