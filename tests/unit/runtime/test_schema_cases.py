"""The instances the verdict tests judge: one change away from valid, in each category."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from mcpgen.runtime.testing import schema_cases
from mcpgen.runtime.testing.schema_cases import Case, cases

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "size": {"$ref": "#/$defs/size"},
        "inner": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    },
    "required": ["code"],
    "additionalProperties": False,
    "$defs": {"size": {"type": "integer", "minimum": 1, "maximum": 9}},
}


def test_each_category_changes_one_place() -> None:
    instance = {"code": "ABC", "size": 3, "inner": {"n": 1}}
    found = schema_cases._mutations(SCHEMA, instance)
    assert instance == {"code": "ABC", "size": 3, "inner": {"n": 1}}  # left as it was
    assert set(found) == set(schema_cases.CATEGORIES) - {schema_cases.VALID}
    assert {"size": 3, "inner": {"n": 1}} in found[schema_cases.MISSING_REQUIRED]
    assert {"code": "ABC", "size": 3, "inner": {}} in found[schema_cases.MISSING_REQUIRED]
    assert {"code": "ABC", "size": 10, "inner": {"n": 1}} in found[schema_cases.OUT_OF_RANGE]
    assert {"code": "", "size": 3, "inner": {"n": 1}} in found[schema_cases.PATTERN_BREAK]
    assert {"code": None, "size": 3, "inner": {"n": 1}} in found[schema_cases.WRONG_TYPE]


def test_patterns_python_cannot_read_are_left_out_of_generation_only() -> None:
    schema = {
        "type": "object",
        "properties": {"pattern": {"type": "string", "pattern": "^\\p{L}+$"}, "a(": {}},
        "patternProperties": {"^\\p{L}+$": {}, "^\\d+$": {"pattern": "x"}},
    }
    assert schema_cases._python_readable(schema) == {
        "type": "object",
        "properties": {"pattern": {"type": "string"}, "a(": {}},
        "patternProperties": {"^\\d+$": {"pattern": "x"}},
    }


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(case=cases(SCHEMA))
def test_every_case_is_an_object_with_a_known_category(case: Case) -> None:
    known = (*schema_cases.CATEGORIES, schema_cases.EMPTY_OBJECT)
    assert case.category in known and isinstance(case.instance, dict)


def test_objects_are_found_through_applicators_and_keys_where_regex_dialects_part() -> None:
    schema = {
        "type": "object",
        "allOf": [{"$ref": "#/$defs/keyed"}],
        "anyOf": [{"properties": {"inner": {"properties": {"n": {"minimum": 1}}}}}],
        "unevaluatedProperties": False,
        "$defs": {"keyed": {"patternProperties": {"^\\d+$": {}}, "required": ["1"]}},
    }
    found = schema_cases._mutations(schema, {"1": 0, "inner": {"n": 1}})
    assert {"inner": {"n": 1}} in found[schema_cases.MISSING_REQUIRED]
    assert {"1": 0, "inner": {"n": 0}} in found[schema_cases.OUT_OF_RANGE]
    assert {"1": 0, "inner": {"n": 1}, "1\n": "x"} in found[schema_cases.UNICODE]
    assert {"1": 0, "inner": {"n": 1}, "\u0661\u0662\u0663": "x"} in found[schema_cases.UNICODE]


def test_a_ref_cycle_through_applicators_ends() -> None:
    schema = {"$ref": "#/$defs/a", "$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}}
    assert schema_cases._mutations(schema, {"k": 1})[schema_cases.EXTRA_KEY]


TREE: dict[str, Any] = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/node"}},
    "required": ["root"],
    "$defs": {
        "node": {
            "type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
        }
    },
}
LINKED_LIST: dict[str, Any] = {
    "type": "object",
    "properties": {"value": {"type": "integer"}, "next": {"$ref": "#"}},
    "required": ["value"],
}


def depth(instance: Any) -> int:
    if isinstance(instance, dict):
        return 1 + max((depth(v) for v in instance.values()), default=0)
    if isinstance(instance, list):
        return 1 + max((depth(v) for v in instance), default=0)
    return 0


@settings(max_examples=20, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(case=cases(TREE))
def test_recursive_schemas_are_drawn_from_a_bounded_unrolling(case: Case) -> None:
    assert isinstance(case.instance, dict)
    assert depth(case.instance) <= 2 * (schema_cases.RECURSION_DEPTH + 2) + 1


@settings(max_examples=20, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(case=cases(LINKED_LIST))
def test_a_schema_that_refers_to_its_root_is_drawn(case: Case) -> None:
    assert isinstance(case.instance, dict)


def test_the_unrolling_cuts_recursion_with_false() -> None:
    unrolled = schema_cases.generation_schema(LINKED_LIST)
    nested = unrolled["properties"]["next"]
    for _ in range(schema_cases.RECURSION_DEPTH - 1):
        nested = nested["properties"]["next"]
    assert nested["properties"]["next"] is False
    assert "$ref" not in json.dumps(unrolled)


def test_generation_draws_free_form_values_as_scalars_and_short_arrays() -> None:
    schema = {"type": "object", "properties": {"any": {}, "list": {"type": "array"}}}
    generated = schema_cases.generation_schema(schema)
    assert generated["properties"]["any"] == schema_cases.SCALARS
    assert generated["properties"]["list"]["maxItems"] == schema_cases.GENERATED_ITEMS
    assert generated["additionalProperties"] == schema_cases.SCALARS
    assert schema["properties"]["any"] == {}  # the schema judged is left as it was


KNOWN = {"n": 5}


@settings(max_examples=10, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(case=cases({"type": "object", "properties": {"n": False}, "required": ["n"]}, [KNOWN]))
def test_a_schema_nothing_can_be_drawn_from_changes_the_known_arguments(case: Case) -> None:
    assert case.category != schema_cases.VALID
    assert case.instance == KNOWN or set(case.instance) != {"n"} or case.instance["n"] != 5


def test_properties_named_like_keywords_are_kept_and_inlined() -> None:
    schema = {
        "type": "object",
        "properties": {"$ref": {"type": "string"}, "default": {"$ref": "#/$defs/n"}},
        "$defs": {"n": {"type": "integer"}},
    }
    generated = schema_cases.generation_schema(schema)
    assert generated["properties"] == {"$ref": {"type": "string"}, "default": {"type": "integer"}}


def obj_schema(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties)}


@pytest.mark.parametrize(
    "schema",
    [
        # hypothesis-jsonschema filters strings by the pattern: none ever passes.
        obj_schema(s={"type": "string", "pattern": "^\\d{3}$", "minLength": 5}),
        # hypothesis-jsonschema raises InvalidArgument (max_size=0 < min_size=1) drawing it.
        {
            "type": "object",
            "allOf": [
                {"required": ["s"]},
                {"properties": {"s": {"type": "string"}}},
                {"properties": {"s": {"maxLength": 0, "minLength": 1}}},
            ],
        },
    ],
    ids=["no-draw-passes-the-filters", "draw-raises"],
)
@pytest.mark.parametrize("draws", [1, 10])
def test_schemas_hypothesis_jsonschema_cannot_draw_from_change_known_arguments(
    schema: dict[str, Any], draws: int
) -> None:
    seen: list[Case] = []

    @settings(
        max_examples=draws, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=cases(schema, [{"s": "abc"}]))
    def judge(case: Case) -> None:
        seen.append(case)

    judge()
    assert seen
