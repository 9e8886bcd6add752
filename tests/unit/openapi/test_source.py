"""An `openapi:` entry → tools: inputs, outputs, bindings, filters, overrides and refusals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from mcpgen.openapi.source import ImportedTool, SourceResult, api_key, tools_from_source

SPECS = Path(__file__).parent / "specs"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "openapi").mkdir()
    shutil.copy(SPECS / "pets.yaml", tmp_path / "openapi" / "pets.yaml")
    return tmp_path


def _import(project: Path, **entry: Any) -> SourceResult:
    return tools_from_source(project, {"spec": "openapi/pets.yaml", **entry})


def _tool(result: SourceResult, operation: str) -> ImportedTool:
    return next(t for t in result.tools if t.operation == operation)


def test_every_operation_becomes_a_tool(project: Path) -> None:
    result = _import(project)
    assert not result.problems and not result.diagnostics
    assert result.key == "pet" and result.base_url == "https://pets.example.com/v1"
    assert [t.name for t in result.tools] == [
        "list_pets",
        "create_pet",
        "show_pet_by_id",
        "delete_pet",
        "get_pets_pet_id_name",
    ]


def test_parameters_become_arguments_and_the_binding_says_where_they_go(project: Path) -> None:
    tool = _tool(_import(project), "listPets")
    assert list(tool.input_schema["properties"]) == ["limit", "X-Request-Id"]  # no Accept
    assert "required" not in tool.input_schema
    assert tool.binding is not None
    assert tool.binding["method"] == "GET" and tool.binding["path"] == "/pets"
    assert tool.binding["parameters"][0] == {
        "name": "limit",
        "in": "query",
        "argument": "limit",
        "style": "form",
        "explode": True,
        "required": False,
    }
    assert tool.annotations == {"readOnlyHint": True, "openWorldHint": True}


def test_path_item_parameters_are_shared_and_required(project: Path) -> None:
    tool = _tool(_import(project), "showPetById")
    assert tool.input_schema["required"] == ["petId"]
    assert tool.input_schema["properties"]["petId"] == {
        "type": "integer",
        "minimum": 1,
        "description": "The pet's id.",
    }


def test_an_object_body_is_flattened_without_its_read_only_properties(project: Path) -> None:
    tool = _tool(_import(project), "createPet")
    schema = tool.input_schema
    assert list(schema["properties"]) == ["name", "tag", "weight", "status", "parent", "x-internal"]
    assert schema["required"] == ["name"]
    assert schema["properties"]["tag"] == {"type": ["string", "null"]}
    assert schema["properties"]["weight"] == {"type": "number", "exclusiveMinimum": 0}
    assert schema["properties"]["parent"] == {"$ref": "#/$defs/Pet"}
    assert "id" not in schema["$defs"]["Pet"]["properties"]
    assert tool.binding is not None
    assert tool.binding["body"]["content_type"] == "application/json"
    assert tool.binding["body"]["properties"]["name"] == "name"
    Draft202012Validator.check_schema(schema)
    assert Draft202012Validator(schema).is_valid({"name": "Rex", "parent": {"name": "Max"}})


def test_an_object_response_is_the_output_schema(project: Path) -> None:
    tool = _tool(_import(project), "showPetById")
    assert tool.output_schema is not None
    assert tool.output_schema["type"] == "object"
    assert tool.output_schema["required"] == ["id", "name"]
    assert tool.binding is not None and tool.binding["response"] == {"wrap": None, "empty": False}
    Draft202012Validator(tool.output_schema).validate({"id": 1, "name": "Rex", "tag": None})


def test_a_non_object_response_is_wrapped_in_result(project: Path) -> None:
    result = _import(project)
    listed = _tool(result, "listPets")
    assert listed.output_schema is not None
    assert listed.output_schema["required"] == ["result"]
    assert listed.output_schema["properties"]["result"]["type"] == "array"
    assert listed.binding is not None and listed.binding["response"]["wrap"] == "result"
    named = _tool(result, "GET /pets/{petId}/name")
    assert named.output_schema == {
        "type": "object",
        "properties": {"result": {"type": "string"}},
        "required": ["result"],
    }


def test_a_204_is_an_empty_success_with_no_output_schema(project: Path) -> None:
    tool = _tool(_import(project), "deletePet")
    assert tool.output_schema is None
    assert tool.binding is not None and tool.binding["response"] == {"wrap": None, "empty": True}
    assert tool.annotations == {
        "idempotentHint": True,
        "destructiveHint": True,
        "openWorldHint": True,
    }
    assert tool.description == "Calls DELETE /pets/{petId}."


def test_include_tags_and_exclude_choose_operations(project: Path) -> None:
    assert [t.operation for t in _import(project, include=["deletePet"]).tools] == ["deletePet"]
    tagged = _import(project, tags=["pets"], exclude=["createPet"])
    assert [t.operation for t in tagged.tools] == [
        "listPets",
        "showPetById",
        "GET /pets/{petId}/name",
    ]


def test_unknown_names_in_filters_and_overrides_are_errors_with_a_suggestion(
    project: Path,
) -> None:
    result = _import(project, include=["listPet"], tags=["cats"], overrides={"deletePets": {}})
    messages = {p.path: p.message for p in result.problems}
    assert "did you mean 'listPets'" in messages[("include", 0)]
    assert "no tag 'cats'" in messages[("tags", 0)]
    assert "deletePet" in messages[("overrides", "deletePets")]


def test_overrides_rename_redescribe_and_relax_validation(project: Path) -> None:
    result = _import(
        project,
        overrides={
            "showPetById": {
                "name": "get_pet",
                "description": "One pet.",
                "output_validation": "warn",
            },
            "listPets": {"output_validation": "off", "annotations": {"openWorldHint": False}},
            "deletePet": {"handler": "custom"},
        },
    )
    shown = _tool(result, "showPetById")
    assert (shown.name, shown.description, shown.output_schema) == ("get_pet", "One pet.", None)
    assert shown.binding is not None and shown.binding["output_validation"] == "warn"
    assert shown.binding["response_schema"]["type"] == "object"
    listed = _tool(result, "listPets")
    assert listed.output_schema is None and listed.binding is not None
    assert listed.binding["response_schema"] is None
    assert listed.annotations == {"readOnlyHint": True, "openWorldHint": False}
    assert _tool(result, "deletePet").binding is None


def test_the_spec_must_stay_inside_the_project(project: Path, tmp_path_factory: Any) -> None:
    outside = tmp_path_factory.mktemp("outside") / "spec.yaml"
    shutil.copy(SPECS / "pets.yaml", outside)
    (project / "openapi" / "link.yaml").symlink_to(outside)
    for spec in ("../spec.yaml", str(outside), "openapi/link.yaml"):
        result = tools_from_source(project, {"spec": spec})
        assert not result.tools
        assert result.problems and result.problems[0].path == ("spec",), spec


def test_a_json_spec_with_a_byte_order_mark_is_read(project: Path) -> None:
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load((SPECS / "pets.yaml").read_text())
    (project / "openapi" / "pets.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode())
    result = tools_from_source(project, {"spec": "openapi/pets.json"})
    assert len(result.tools) == 5 and not result.diagnostics


def test_swagger_2_is_refused_in_one_line_naming_a_converter(project: Path) -> None:
    (project / "openapi" / "old.json").write_text('{"swagger": "2.0", "paths": {}}')
    result = tools_from_source(project, {"spec": "openapi/old.json"})
    (diagnostic,) = result.diagnostics
    assert "Swagger 2.0" in diagnostic.message and "swagger2openapi" in diagnostic.message
    assert (diagnostic.line, diagnostic.col) == (1, 13)


def test_an_invalid_spec_is_reported_where_the_problem_is(project: Path) -> None:
    text = (SPECS / "pets.yaml").read_text().replace("description: deleted", "descripton: x")
    (project / "openapi" / "bad.yaml").write_text(text)
    result = tools_from_source(project, {"spec": "openapi/bad.yaml"})
    assert result.diagnostics and not result.tools
    line = text.splitlines()[result.diagnostics[0].line - 1]
    assert "'204'" in line


def test_an_external_ref_is_refused_and_never_followed(project: Path) -> None:
    text = (
        (SPECS / "pets.yaml")
        .read_text()
        .replace("$ref: '#/components/schemas/Error'", "$ref: '/etc/passwd'")
    )
    (project / "openapi" / "ext.yaml").write_text(text)
    result = tools_from_source(project, {"spec": "openapi/ext.yaml"})
    (diagnostic,) = result.diagnostics
    assert "outside this document" in diagnostic.message
    assert "/etc/passwd" in text.splitlines()[diagnostic.line - 1]


def test_the_api_key_comes_from_the_title() -> None:
    assert api_key("GitHub's official OpenAPI spec + Octokit extension", "x.json") == "github"
    assert api_key("Swagger Petstore - OpenAPI 3.0", "x.json") == "petstore"
    assert api_key(None, "openapi/stripe-v3.yaml") == "stripe"


@pytest.fixture
def notes(tmp_path: Path) -> SourceResult:
    (tmp_path / "openapi").mkdir()
    shutil.copy(SPECS / "notes31.json", tmp_path / "openapi" / "notes31.json")
    return tools_from_source(tmp_path, {"spec": "openapi/notes31.json"})


def test_a_31_spec_imports_with_server_variables_filled_in(notes: SourceResult) -> None:
    assert not notes.problems and not notes.diagnostics
    assert notes.base_url == "https://eu.notes.example.com"
    assert [t.name for t in notes.tools] == ["notes_list", "notes_create", "notes_replace_all"]


def test_a_31_ref_keeps_its_siblings(notes: SourceResult) -> None:
    listed = _tool(notes, "notes.list")
    assert listed.input_schema["properties"]["label"] == {
        "type": "string",
        "maxLength": 20,
        "description": "A label.",
    }


def test_a_name_used_in_two_locations_is_renamed_after_its_location(notes: SourceResult) -> None:
    listed = _tool(notes, "notes.list")
    assert list(listed.input_schema["properties"]) == ["label", "header_label"]
    assert listed.binding is not None
    assert [p["argument"] for p in listed.binding["parameters"]] == ["label", "header_label"]


def test_a_body_property_clashing_with_a_parameter_is_renamed(notes: SourceResult) -> None:
    created = _tool(notes, "notes.create")
    assert created.binding is not None
    assert created.binding["body"] == {
        "content_type": "application/x-www-form-urlencoded",
        "properties": {"body_text": "text"},
    }
    assert created.input_schema["required"] == ["body_text"]


def test_a_non_object_body_is_one_argument(notes: SourceResult) -> None:
    replaced = _tool(notes, "notes.replaceAll")
    assert replaced.input_schema["properties"]["body"] == {
        "type": "array",
        "items": {"type": "string"},
    }
    assert "required" not in replaced.input_schema
    assert replaced.binding is not None
    assert replaced.binding["body"] == {"content_type": "application/json", "argument": "body"}
    assert replaced.binding["response"] == {"wrap": None, "empty": True}
    assert replaced.output_schema is None


def test_a_recursive_31_schema_is_kept_as_local_defs(notes: SourceResult) -> None:
    listed = _tool(notes, "notes.list")
    assert listed.output_schema is not None
    assert listed.output_schema["properties"]["result"]["items"] == {"$ref": "#/$defs/Note"}
    note = listed.output_schema["$defs"]["Note"]
    assert note["properties"]["children"]["items"] == {"$ref": "#/$defs/Note"}
    assert "id" in note["properties"]  # readOnly: in responses
    Draft202012Validator(listed.output_schema).validate(
        {"result": [{"id": "1", "text": "a", "due": None, "children": [{"id": "2", "text": "b"}]}]}
    )


def test_a_union_of_objects_is_an_object_output_not_wrapped(project: Path) -> None:
    spec = project / "openapi" / "pets.yaml"
    spec.write_text(
        spec.read_text().replace(
            "              schema: {$ref: '#/components/schemas/Pet'}\n        default:",
            "              schema:\n                oneOf:\n"
            "                  - {$ref: '#/components/schemas/Pet'}\n"
            "                  - {$ref: '#/components/schemas/Error'}\n        default:",
        )
    )
    shown = _tool(_import(project), "showPetById")
    assert shown.output_schema is not None and shown.output_schema["type"] == "object"
    assert len(shown.output_schema["oneOf"]) == 2
    assert shown.binding is not None and shown.binding["response"]["wrap"] is None


def test_an_all_of_with_an_object_branch_is_an_object_output(project: Path) -> None:
    spec = project / "openapi" / "pets.yaml"
    spec.write_text(
        spec.read_text().replace(
            "              schema: {$ref: '#/components/schemas/Pet'}\n        default:",
            "              schema:\n                allOf:\n"
            "                  - {$ref: '#/components/schemas/Error'}\n"
            "                  - {properties: {code: {type: integer}}}\n        default:",
        )
    )
    shown = _tool(_import(project), "showPetById")
    assert shown.output_schema is not None and shown.output_schema["type"] == "object"
    assert shown.binding is not None and shown.binding["response"]["wrap"] is None
