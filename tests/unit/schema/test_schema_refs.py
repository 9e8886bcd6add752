"""mcpgen.schema.walk and mcpgen.schema.refs: one walker, one resolver, per draft."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing.jsonschema import DRAFT4, DRAFT7, DRAFT202012

from mcpgen.models.schemas import model_schema
from mcpgen.render.publish import without_unimplemented
from mcpgen.schema.refs import SchemaRefs, inline_refs, localize_refs
from mcpgen.schema.walk import map_schema, specification_for, walk

OWN_ID = {
    "$id": "https://x.example/a.json",
    "type": "object",
    "properties": {"b": {"$ref": "https://x.example/a.json#/$defs/B"}},
    "$defs": {"B": {"type": "string"}},
}


def paths(schema: Any, spec: Any = None) -> list[tuple[str | int, ...]]:
    return [node.path for node in walk(schema, spec)]


def test_the_walker_follows_the_draft_the_schema_names() -> None:
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "items": [{"type": "string"}, {"type": "integer"}],
        "dependencies": {"a": {"required": ["b"]}},
        "prefixItems": [{"type": "null"}],
    }
    # draft-07: `items` is a list of schemas and `prefixItems` is not a keyword.
    assert paths(draft7) == [(), ("items", 0), ("items", 1), ("dependencies", "a")]
    as_2020 = {k: v for k, v in draft7.items() if k != "$schema"}
    assert paths(as_2020) == [(), ("prefixItems", 0)]


def test_a_property_named_like_a_keyword_is_a_property() -> None:
    schema = {"properties": {"pattern": {"type": "string"}, "items": {"type": "integer"}}}
    assert paths(schema) == [(), ("properties", "pattern"), ("properties", "items")]


def test_malformed_keywords_are_skipped_not_raised() -> None:
    schema = {"properties": "nope", "allOf": 3, "items": {"type": "string"}}
    assert paths(schema) == [(), ("items",)]


@pytest.mark.parametrize(
    ("uri", "spec"),
    [
        ("http://json-schema.org/draft-07/schema#", DRAFT7),
        ("https://json-schema.org/draft-07/schema", DRAFT7),
        ("http://json-schema.org/draft-04/schema", DRAFT4),
        ("https://json-schema.org/draft/2020-12/schema", DRAFT202012),
    ],
)
def test_dialect_uris_are_read_with_their_usual_spellings(uri: str, spec: Any) -> None:
    assert specification_for(uri) is spec


def test_map_schema_rebuilds_without_touching_the_input() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "format": "email"}}}
    mapped = map_schema(schema, lambda s: {k: v for k, v in s.items() if k != "format"})
    assert mapped == {"type": "object", "properties": {"a": {"type": "string"}}}
    assert schema["properties"]["a"]["format"] == "email"


def test_a_ref_to_the_own_id_resolves_and_becomes_a_local_pointer() -> None:
    assert SchemaRefs(OWN_ID).problems() == []
    assert localize_refs(OWN_ID)["properties"]["b"] == {"$ref": "#/$defs/B"}
    assert inline_refs(OWN_ID).schema["properties"]["b"] == {"type": "string"}


def test_refs_inside_an_embedded_resource_become_pointers_from_the_root() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"$id": "urn:sub", "$ref": "#/$defs/x", "$defs": {"x": {"type": "integer"}}},
            "b": {"$ref": "urn:sub"},
        },
    }
    local = localize_refs(schema)
    assert local["properties"]["a"]["$ref"] == "#/properties/a/$defs/x"
    assert "$id" not in local["properties"]["a"]
    assert local["properties"]["b"] == {"$ref": "#/properties/a"}


def test_pure_loops_are_found_and_data_recursion_is_not() -> None:
    looping = {"$defs": {"a": {"not": {"$ref": "#/$defs/b"}}, "b": {"$ref": "#/$defs/a"}}}
    assert [p.path for p in SchemaRefs(looping).problems()] == [("$defs", "a", "not")]
    tree = {"properties": {"kids": {"items": {"$ref": "#"}}}}
    assert SchemaRefs(tree).problems() == []


def test_an_external_ref_is_never_retrieved() -> None:
    (problem,) = SchemaRefs({"$ref": "https://example.com/s.json"}).problems()
    assert problem.message.startswith("external $ref 'https://example.com/s.json' is refused")


@pytest.mark.parametrize(
    "execution",
    [
        {"taskSupport": "optional"},
        {"taskSupport": "required", "other": 1},
        {"taskSupport": "forbidden"},
    ],
)
def test_task_support_is_published_as_written(execution: dict[str, Any]) -> None:
    """The server runs such calls as tasks, so what the manifest says is true on the wire."""
    entry = without_unimplemented({"name": "t", "execution": execution, "icons": []})
    assert entry.get("execution") == execution
    assert entry["icons"] == []


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.sampled_from(["", "#", "x"]))
REFS = st.sampled_from(
    [
        "#",
        "#/$defs/a",
        "#/$defs/b",
        "#/properties/p",
        "#a",
        "sub.json",
        "urn:x",
        "#/$defs/%zz",
        "#/$defs/a/items/0",
    ]
)
KEYWORDS = st.sampled_from(
    [
        "$ref",
        "$id",
        "$anchor",
        "$schema",
        "items",
        "allOf",
        "anyOf",
        "not",
        "properties",
        "$defs",
        "prefixItems",
        "type",
    ]
)
SCHEMAS = st.recursive(
    st.dictionaries(KEYWORDS, st.one_of(SCALARS, REFS), max_size=3),
    lambda inner: st.dictionaries(
        KEYWORDS,
        st.one_of(
            inner,
            st.lists(inner, max_size=2),
            st.dictionaries(st.sampled_from(["a", "b", "p"]), inner, max_size=2),
            REFS,
            SCALARS,
        ),
        max_size=4,
    ),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(SCHEMAS)
def test_any_schema_shaped_data_resolves_or_reports_never_raises(schema: dict[str, Any]) -> None:
    SchemaRefs(schema).problems()
    localize_refs(schema)
    inline_refs(schema)
    model_schema(schema)


def test_a_loop_is_reported_at_the_ref_that_closes_it() -> None:
    schema = {"definitions": {"a": {}}, "$ref": "#/definitions/a", "allOf": [{"$ref": "#"}]}
    (problem,) = SchemaRefs(schema).problems()
    assert problem.path == ("allOf", 0)
    assert problem.message.startswith("$ref '#' loops back here ('#' → here)")
    # Before 2019-09, a `$ref` replaces its schema: the `allOf` beside it is never applied.
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", **schema}
    assert SchemaRefs(draft7).problems() == []
