"""OpenAPI 3.0 schema keywords → JSON Schema 2020-12, one rule per test."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from mcpgen.openapi.local_defs import tidy_defs
from mcpgen.openapi.refs import RefError, SpecRefs
from mcpgen.openapi.schema30 import convert_keywords


def test_nullable_adds_null_to_the_type() -> None:
    assert convert_keywords({"type": "string", "nullable": True}, "3.0") == {
        "type": ["string", "null"]
    }


def test_nullable_enum_also_lists_null() -> None:
    converted = convert_keywords({"type": "string", "enum": ["a"], "nullable": True}, "3.0")
    assert converted == {"type": ["string", "null"], "enum": ["a", None]}
    assert Draft202012Validator(converted).is_valid(None)


def test_nullable_without_a_type_becomes_any_of_null() -> None:
    converted = convert_keywords({"allOf": [{"type": "integer"}], "nullable": True}, "3.0")
    assert converted == {"anyOf": [{"allOf": [{"type": "integer"}]}, {"type": "null"}]}


def test_nullable_false_is_dropped() -> None:
    assert convert_keywords({"type": "string", "nullable": False}, "3.0") == {"type": "string"}


def test_boolean_exclusive_bounds_become_numbers() -> None:
    schema = {"type": "number", "minimum": 0, "exclusiveMinimum": True, "maximum": 9}
    schema |= {"exclusiveMaximum": False}
    assert convert_keywords(schema, "3.0") == {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 9,
    }


def test_example_becomes_examples() -> None:
    assert convert_keywords({"type": "string", "example": "Rex"}, "3.0") == {
        "type": "string",
        "examples": ["Rex"],
    }


def test_openapi_only_keywords_and_extensions_are_dropped() -> None:
    schema = {
        "type": "object",
        "discriminator": {"propertyName": "kind"},
        "xml": {"name": "pet"},
        "externalDocs": {"url": "https://example.com"},
        "x-internal": True,
    }
    assert convert_keywords(schema, "3.0") == {"type": "object"}


def test_a_30_ref_drops_its_siblings_but_annotations() -> None:
    schema = {"$ref": "#/components/schemas/Pet", "description": "the pet", "type": "string"}
    assert convert_keywords(schema, "3.0") == {
        "$ref": "#/components/schemas/Pet",
        "description": "the pet",
    }


def test_31_schemas_pass_through() -> None:
    schema = {"type": ["string", "null"], "exclusiveMinimum": 3, "examples": ["a"]}
    assert convert_keywords(schema, "3.1") == schema


SPEC = {
    "components": {
        "schemas": {
            "Node": {
                "type": "object",
                "required": ["id", "secret"],
                "properties": {
                    "id": {"type": "integer", "readOnly": True},
                    "secret": {"type": "string", "writeOnly": True},
                    "next": {"$ref": "#/components/schemas/Node"},
                },
            },
            "Wrapper": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
        }
    },
    "paths": {"/a": {"get": {"x": {"$ref": "#/paths/~1a/get/x"}}}},
}


def test_component_refs_become_local_defs_and_recursion_stays_finite() -> None:
    schema, defs = SpecRefs(SPEC, "3.0").schema_for_tool(
        {"$ref": "#/components/schemas/Wrapper"}, "response"
    )
    assert schema == {"$ref": "#/$defs/Wrapper"}
    assert set(defs) == {"Wrapper", "Node"}
    assert defs["Node"]["properties"]["next"] == {"$ref": "#/$defs/Node"}
    whole = {**schema, "$defs": defs}
    assert Draft202012Validator(whole).is_valid([{"id": 1, "next": {"id": 2}}])


def test_single_use_defs_are_inlined_and_cycles_and_shared_ones_kept() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/Once", "description": "A"},
            "b": {"$ref": "#/$defs/Twice"},
            "c": {"$ref": "#/$defs/Twice"},
            "d": {"$ref": "#/$defs/Node"},
        },
        "$defs": {
            "Once": {"type": "integer", "minimum": 1},
            "Twice": {"type": "string"},
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}},
            "Unused": {"type": "null"},
        },
    }
    tidy = tidy_defs(schema)
    assert tidy["properties"]["a"] == {"type": "integer", "minimum": 1, "description": "A"}
    assert tidy["properties"]["b"] == {"$ref": "#/$defs/Twice"}
    assert set(tidy["$defs"]) == {"Twice", "Node"}


def test_a_chain_of_single_use_defs_is_inlined_whole() -> None:
    schema = {
        "$ref": "#/$defs/Outer",
        "$defs": {
            "Outer": {"type": "object", "properties": {"in": {"$ref": "#/$defs/Inner"}}},
            "Inner": {"type": "string"},
        },
    }
    assert tidy_defs(schema) == {"type": "object", "properties": {"in": {"type": "string"}}}


def test_read_only_properties_leave_requests_and_write_only_ones_responses() -> None:
    refs = SpecRefs(SPEC, "3.0")
    request = refs.component("Node", "request")
    response = refs.component("Node", "response")
    assert set(request["properties"]) == {"secret", "next"}
    assert request["required"] == ["secret"]
    assert set(response["properties"]) == {"id", "next"}
    assert response["required"] == ["id"]


def test_a_ref_that_loops_outside_components_is_refused() -> None:
    with pytest.raises(RefError, match="refers back to itself"):
        SpecRefs(SPEC, "3.0").schema_for_tool({"$ref": "#/paths/~1a/get/x"}, "request")


def test_a_ref_to_nothing_is_refused() -> None:
    with pytest.raises(RefError, match="points to nothing"):
        SpecRefs(SPEC, "3.0").schema_for_tool({"$ref": "#/components/schemas/Nope"}, "request")


def test_a_leftover_nullable_in_a_31_document_is_honoured() -> None:
    assert convert_keywords({"type": "string", "nullable": True}, "3.1") == {
        "type": ["string", "null"]
    }
