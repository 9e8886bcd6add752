"""mcpgen.models.codegen and mcpgen.models.schemas: models that read like hand-written pydantic, and
the same manifest always giving the same bytes, whatever was generated before."""

from __future__ import annotations

import hashlib
import json
import re
import sys
import types
from pathlib import Path
from typing import Any

from mcpgen.generation import generate_project
from mcpgen.manifest.model import build_manifest
from mcpgen.models.codegen import render_models


def tool_manifest(properties: dict[str, Any], **schema: Any) -> Any:
    tool = {
        "name": "notes.create",
        "description": "d",
        "input_schema": {"type": "object", "properties": properties, **schema},
    }
    return build_manifest({"name": "demo", "version": "1.0.0", "tools": [tool]})


def models_of(properties: dict[str, Any], **schema: Any) -> str:
    return render_models(tool_manifest(properties, **schema))


def field(source: str, name: str) -> str:
    found = re.search(rf"^    {name}: (.*)$", source, re.MULTILINE)
    assert found, source
    return found.group(1)


def test_a_field_with_a_default_is_not_optional() -> None:
    source = models_of(
        {
            "days": {"type": "integer", "default": 3},
            "city": {"type": "string"},
            "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
            "note": {"type": ["string", "null"], "default": "x"},
            "alias": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "odd": {"type": "string", "default": None},
            "id": {"type": "string"},
        },
        required=["id"],
    )
    assert field(source, "days") == "int = 3"
    assert field(source, "city") == "str | None = None"
    assert field(source, "units") == 'Literal["metric", "imperial"] = "metric"'
    assert field(source, "note") == 'str | None = "x"'
    assert field(source, "alias") == "str | None = None"
    # A null default on a type without null means "no default", not `str = None`.
    assert field(source, "odd") == "str | None = None"
    assert field(source, "id") == "str"


def test_union_branches_are_named_from_their_const_or_title() -> None:
    link = {
        "type": "object",
        "properties": {"kind": {"const": "link"}, "url": {"type": "string"}},
        "required": ["kind", "url"],
    }
    upload = {
        "type": "object",
        "title": "File upload",
        "properties": {"kind": {"const": "file"}, "id": {"type": "string"}},
    }
    source = models_of(
        {"attachment": {"$ref": "#/$defs/Attachment"}},
        **{"$defs": {"Attachment": {"oneOf": [link, upload]}}},
    )
    assert "class NotesCreateInputAttachmentLink(BaseModel):" in source
    assert "class NotesCreateInputAttachmentFileUpload(BaseModel):" in source
    union = "NotesCreateInputAttachmentLink | NotesCreateInputAttachmentFileUpload | None,"
    assert union in source


def test_a_branch_without_a_name_keeps_the_generators_name() -> None:
    plain = {"type": "object", "properties": {"a": {"type": "string"}}}
    other = {"type": "object", "properties": {"b": {"type": "integer"}}}
    source = models_of({"pick": {"anyOf": [plain, other]}})
    assert "class NotesCreateInputPick(BaseModel):" in source
    assert "class NotesCreateInputPick1(BaseModel):" in source


def test_closed_prefix_items_are_tuples() -> None:
    number = {"type": "number", "exclusiveMinimum": 0}
    source = models_of(
        {
            "size": {"type": "array", "prefixItems": [number] * 3, "items": False, "minItems": 3},
            "pair": {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}],
                "items": False,
                "minItems": 2,
            },
        },
        required=["size"],
    )
    assert field(source, "size") == "tuple[float, float, float]"
    assert field(source, "pair") == "tuple[str, int] | None = None"
    assert "RootModel" not in source


def test_models_end_with_one_newline() -> None:
    source = models_of(
        {"tree": {"$ref": "#/$defs/Node"}},
        **{
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                }
            }
        },
    )
    assert source.endswith(".model_rebuild()\n")
    assert not source.endswith("\n\n")


def test_a_ref_to_the_schemas_own_id_gives_models_without_fetching() -> None:
    source = models_of(
        {"b": {"$ref": "https://x.invalid/a.json#/$defs/B"}},
        **{
            "$id": "https://x.invalid/a.json",
            "$defs": {"B": {"type": "object", "properties": {"n": {"type": "integer"}}}},
        },
    )
    assert field(source, "b") == "NotesCreateInputB | None = None"


def test_colliding_property_names_resolve_by_position() -> None:
    first = models_of({"for-each": {"type": "string"}, "for_each": {"type": "integer"}})
    assert field(first, "for_each") == 'Annotated[str | None, Field(alias="for-each")] = None'
    assert field(first, "for_each_1") == 'Annotated[int | None, Field(alias="for_each")] = None'
    swapped = models_of({"for_each": {"type": "integer"}, "for-each": {"type": "string"}})
    assert field(swapped, "for_each") == "int | None = None"


def test_models_do_not_depend_on_what_was_generated_before() -> None:
    ordered = tool_manifest({"for-each": {"type": "string"}, "for_each": {"type": "integer"}})
    swapped = tool_manifest({"for_each": {"type": "integer"}, "for-each": {"type": "string"}})
    fresh = render_models(ordered)
    assert render_models(ordered, previous=render_models(swapped)) == fresh
    assert render_models(ordered, previous=fresh) == fresh


def write_manifest(root: Path, properties: dict[str, Any]) -> None:
    tool = {
        "name": "t",
        "description": "d",
        "input_schema": {"type": "object", "properties": properties},
    }
    # JSON is YAML, and json.dumps keeps the order of properties (a YAML dumper sorts them).
    manifest = {"name": "demo", "version": "1.0.0", "tools": [tool]}
    (root / "mcpgen.yaml").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def generated_tree(root: Path) -> dict[str, bytes]:
    generated = root / "src" / "demo" / "_generated"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(generated.rglob("*.py"))}


def test_regenerating_across_histories_gives_the_same_bytes(tmp_path: Path) -> None:
    ordered = {
        "for-each": {"type": "string"},
        "for_each": {"type": "integer"},
        "n": {"type": "integer", "default": 1},
    }
    swapped = dict(reversed(list(ordered.items())))
    direct, winding = tmp_path / "direct", tmp_path / "winding"
    for root in (direct, winding):
        root.mkdir()
    write_manifest(direct, ordered)
    generate_project(direct)
    for step in (swapped, ordered):  # the same manifest, reached the long way
        write_manifest(winding, step)
        generate_project(winding)
    assert generated_tree(winding) == generated_tree(direct)
    write_manifest(winding, swapped)
    generate_project(winding)
    models = "src/demo/_generated/models.py"
    assert generated_tree(winding)[models] != generated_tree(direct)[models]


def input_model(source: str) -> Any:
    """The `NotesCreateInput` class the source defines (in a module of its own: pydantic
    resolves the postponed annotations through it)."""
    module = types.ModuleType(f"models_{hashlib.sha256(source.encode()).hexdigest()[:12]}")
    sys.modules[module.__name__] = module
    exec(compile(source, "models.py", "exec"), module.__dict__)
    return module.NotesCreateInput


def test_pattern_keyed_values_type_the_extras_only_where_nothing_else_may_follow() -> None:
    # Open: a key no pattern matches may hold anything, so the extras are not typed by the
    # pattern's schema (the model would refuse `{"y": "s"}`, which the schema accepts).
    open_source = models_of(
        {"a": {"type": "string"}}, patternProperties={"^x": {"type": "integer"}}
    )
    assert input_model(open_source).model_validate({"y": "s", "x1": 2}).model_extra == {
        "y": "s",
        "x1": 2,
    }
    closed_source = models_of(
        {"a": {"type": "string"}},
        patternProperties={"^x": {"type": "integer"}},
        additionalProperties=False,
    )
    assert input_model(closed_source).model_validate({"x1": 2}).model_extra == {"x1": 2}


def test_typed_extras_are_spelt_with_the_builtin_dict() -> None:
    source = models_of({"a": {"type": "string"}}, additionalProperties={"type": "integer"})
    assert '"__pydantic_extra__": dict[str, int]' in source
    assert "Dict[" not in source and not re.search(r"^from typing import .*\bDict\b", source, re.M)
    assert input_model(source).model_validate({"b": 1}).model_extra == {"b": 1}


def test_openapi_nullable_and_discriminator_are_ignored_as_json_schema_ignores_them() -> None:
    branches = [
        {"type": "object", "properties": {"k": {"const": "x"}, "n": {"type": "integer"}}},
        {"type": "object", "properties": {"k": {"const": "y"}}, "required": ["k"]},
    ]
    source = models_of(
        {
            "name": {"type": "string", "nullable": True},
            "pick": {"oneOf": branches, "discriminator": {"propertyName": "k"}},
        },
        required=["name"],
    )
    assert field(source, "name") == "str"
    assert "discriminator" not in source
    model = input_model(source)
    # The schema refuses a null name (`nullable` is no JSON Schema keyword), so must the model;
    # it accepts a branch without its tag (one branch matches), so must the model.
    assert model.model_validate({"name": "a", "pick": {"n": 1}}).pick is not None
    try:
        model.model_validate({"name": None})
    except ValueError:
        pass
    else:
        raise AssertionError("the model accepted the null the schema refuses")


def test_keys_an_applicator_evaluates_are_no_extras_unevaluated_properties_forbids() -> None:
    # `unevaluatedProperties: false` sees the keys `allOf`/`anyOf`/`oneOf`/`if` branches
    # evaluate, as the verdict does: a model that forbade them would refuse a call the
    # schema accepts (the handler would get its arguments unconverted, the key lost).
    numbers = {"patternProperties": {"^[0-9]+$": {"type": "integer"}}}
    open_extras = {"additionalProperties": {"type": "integer"}}
    for applicator in (
        {"allOf": [numbers]},
        {"anyOf": [numbers, {"required": ["a"]}]},
        {"oneOf": [open_extras]},
        {"if": {"required": ["a"]}, "then": {}, "else": numbers},
        {"dependentSchemas": {"a": numbers}},
        {"allOf": [{"$ref": "#/$defs/numbers"}], "$defs": {"numbers": numbers}},
    ):
        source = models_of({"a": {"type": "string"}}, unevaluatedProperties=False, **applicator)
        arguments = {"12": 1, "a": "s"} if "dependentSchemas" in applicator else {"12": 1}
        model = input_model(source).model_validate(arguments)
        assert '"12":1' in model.model_dump_json(), applicator  # kept, not dropped
    closed = models_of({"a": {"type": "string"}}, unevaluatedProperties=False)
    try:
        input_model(closed).model_validate({"12": 1})
    except ValueError:
        pass
    else:
        raise AssertionError("a key nothing evaluates passed unevaluatedProperties: false")


def test_items_another_keyword_evaluates_are_not_typed_by_unevaluated_items() -> None:
    # The generator reads `unevaluatedItems` as every item's type (`false` as an empty
    # list): with `contains` or a branch's `prefixItems` beside it, the model refused a list
    # the schema accepts.
    first_int = {"prefixItems": [{"type": "integer"}]}
    for schema, value in (
        ({"allOf": [first_int], "unevaluatedItems": False}, [1]),
        ({"contains": {"type": "integer"}, "unevaluatedItems": {"type": "string"}}, [1, "a"]),
        ({"allOf": [{"$ref": "#/$defs/first_int"}], "unevaluatedItems": False}, [1]),
    ):
        array = {"type": "array", **schema}
        source = models_of({"v": array}, **{"$defs": {"first_int": first_int}})
        assert input_model(source).model_validate({"v": value}).v == value, schema
