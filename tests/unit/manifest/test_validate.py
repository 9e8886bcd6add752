"""mcpgen.manifest.validate and the public API: rules, located messages, and no exceptions."""

from __future__ import annotations

import io
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

from mcpgen.errors import Diagnostic, ManifestInvalid, McpgenError
from mcpgen.manifest import (
    MANIFEST_FILENAME,
    Manifest,
    check_manifest,
    check_text,
    find_manifest,
    load_manifest,
    manifest_json_schema,
)


def dump(data: Any) -> str:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    text = io.StringIO()
    yaml.dump(data, text)
    return text.getvalue()


def tool(name: str = "get_forecast", schema: Any = None, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": "A tool.",
        "input_schema": {"type": "object"} if schema is None else schema,
        **extra,
    }


def check(*tools: dict[str, Any], **top: Any) -> tuple[Manifest | None, list[Diagnostic]]:
    data = {"name": "weather", "version": "0.1.0", "tools": list(tools), **top}
    return check_text(dump(data), "mcpgen.yaml")


def errors(*tools: dict[str, Any], **top: Any) -> list[str]:
    """`path: message` of each error."""
    return [f"{d.path}: {d.message}" for d in check(*tools, **top)[1] if d.level == "error"]


def obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


# The manifest's own schema


def test_a_minimal_manifest_is_valid_and_typed() -> None:
    manifest, diagnostics = check(tool())
    assert diagnostics == []
    assert manifest is not None
    assert manifest.package == "weather"
    assert manifest.tools[0].python_name == "get_forecast"


def test_camel_case_tools_list_entries_load_as_is() -> None:
    entry = {
        "name": "x",
        "title": "X",
        "description": "d",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True, "category": "c"},
        "execution": {"taskSupport": "forbidden"},
        "_meta": {"k": 1},
        "icons": [{"src": "a"}],
    }
    manifest, diagnostics = check(entry)
    assert diagnostics == []  # `category` is published as written, like every pasted key
    assert manifest is not None
    assert manifest.tools[0].wire() == entry


def test_mcp_annotations_raise_no_diagnostics() -> None:
    entry = {
        "name": "x",
        "description": "d",
        "inputSchema": {"type": "object"},
        "annotations": {
            "title": "X",
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    }
    assert check(entry)[1] == []


def test_unknown_key_suggests_the_closest() -> None:
    assert errors(tool(annotatons={}), descripton="x") == [
        "descripton: unknown key 'descripton'; did you mean 'description'?",
        "tools[0] (get_forecast).annotatons: unknown key 'annotatons'; did you mean 'annotations'?",
    ]


def test_unknown_key_is_located_at_the_key() -> None:
    _, diagnostics = check_text("name: a\nversion: '1'\ntools: []\nextra_thing: 1\n", "m.yaml")
    assert [(d.line, d.col) for d in diagnostics] == [(4, 1)]
    assert diagnostics[0].message == "unknown key 'extra_thing'"


def test_missing_required_keys_point_at_the_parent() -> None:
    _, diagnostics = check_text("version: '1'\ntools:\n  - description: x\n", "m.yaml")
    assert [(d.line, d.col, d.path, d.message) for d in diagnostics] == [
        (1, 1, "", "missing required key 'name'"),
        (3, 5, "tools[0]", "a tool needs exactly one of `input_schema` or `inputSchema`"),
        (3, 5, "tools[0]", "missing required key 'name'"),
    ]


def test_input_schema_spellings_are_exclusive() -> None:
    both = tool(inputSchema={"type": "object"})
    assert errors(both) == [
        "tools[0] (get_forecast): a tool needs exactly one of `input_schema` or `inputSchema`"
    ]
    outputs = tool(output_schema={"type": "object"}, outputSchema={"type": "object"})
    assert errors(outputs) == [
        "tools[0] (get_forecast): give `output_schema` or `outputSchema`, not both"
    ]


def test_version_written_as_a_number_gets_a_quoting_hint() -> None:
    _, diagnostics = check_text("name: a\nversion: 1.10\ntools: []\n", "m.yaml")
    assert (
        str(diagnostics[0])
        == 'm.yaml:2:10: version: expected a string, got a number; quote it: "1.10"'
    )


@pytest.mark.parametrize(
    ("top", "message"),
    [
        ({"name": ""}, "name: the server name must be a non-empty string"),
        ({"format": 2}, "format: must be 1, not 2"),
        ({"package": "my-pkg"}, "package: the package must be a Python identifier"),
        ({"package": "class"}, "package: package 'class' is a Python keyword; choose another name"),
        ({"env": {"API KEY": {}}}, 'env["API KEY"]: an environment variable name is letters'),
        ({"env": {"KEY": "value"}}, "env.KEY: expected a mapping, got a string"),
        ({"env": {"KEY": {"secret": "yes please"}}}, "env.KEY.secret: expected a boolean"),
    ],
)
def test_top_level_rules(top: dict[str, Any], message: str) -> None:
    found = errors(tool(), **top)
    assert len(found) == 1 and found[0].startswith(message), found


def test_format_1_and_env_are_accepted() -> None:
    env = {
        "API_KEY": {"description": "key", "required": True, "secret": True},
        "LEVEL": {"default": "info"},
    }
    manifest, diagnostics = check(tool(), format=1, env=env, instructions="Use it.")
    assert diagnostics == [] and manifest is not None
    assert [v.name for v in manifest.env] == ["API_KEY", "LEVEL"]


# Tool names


@pytest.mark.parametrize("name", ["get forecast", "", "a" * 129, "café", "a/b"])
def test_invalid_tool_names(name: str) -> None:
    shown = f" ({name if len(name) < 60 else name[:59] + '…'})" if name else ""
    message = errors(tool(name))[0]
    assert message.startswith(f"tools[0]{shown}.name: a tool name is 1 to 128 characters")


@pytest.mark.parametrize("name", ["a", "A-b.c_d", "9lives", "a" * 128])
def test_valid_tool_names(name: str) -> None:
    assert errors(tool(name)) == []


def test_duplicate_tool_names_are_one_error_at_the_repeat() -> None:
    assert errors(tool("a"), tool("b"), tool("a")) == [
        "tools[2] (a).name: duplicate tool name 'a' (also tools[0])"
    ]


def test_python_name_collisions_are_one_error_naming_all() -> None:
    found = errors(tool("list-items"), tool("list_items"), tool("list.items"), tool("other"))
    assert found == [
        "tools[1] (list_items).name: tools 'list-items' (tools[0]), 'list_items' (tools[1]) and "
        "'list.items' "
        "(tools[2]) all get the Python name 'list_items'; give all but one of them a `python_name:`"
    ]


def test_python_name_override_resolves_a_collision() -> None:
    manifest, diagnostics = check(
        tool("list-items"), tool("list_items", python_name="list_items_2")
    )
    assert diagnostics == [] and manifest is not None
    assert [t.python_name for t in manifest.tools] == ["list_items", "list_items_2"]


def test_python_names_must_be_identifiers_and_unique() -> None:
    assert errors(tool("a", python_name="b-c"))[0].startswith(
        "tools[0] (a).python_name: python_name must be a Python identifier"
    )
    assert errors(tool("a", python_name="def")) == [
        "tools[0] (a).python_name: python_name 'def' is a Python keyword; choose another name"
    ]
    assert "all get the Python name 'b'" in errors(tool("a", python_name="b"), tool("b"))[0]


def test_property_names_never_collide() -> None:
    schema = obj(**{"item-id": {}, "item_id": {}, "item.id": {}, "class": {}, "3d": {}})
    assert errors(tool(schema=schema, examples=[{"arguments": {}}])) == []


def test_renamed_from_must_not_name_a_current_tool() -> None:
    assert errors(tool("a", renamed_from="b"), tool("b")) == [
        "tools[0] (a).renamed_from: 'b' is still the name of a tool; "
        "renamed_from lists names no tool has any more"
    ]
    assert errors(tool("a", renamed_from=["old"]), tool("b", renamed_from="old")) == [
        "tools[1] (b).renamed_from: 'old' is also in renamed_from of tools[0]"
    ]


def test_timeout_must_be_positive() -> None:
    assert errors(tool(timeout=0)) == [
        "tools[0] (get_forecast).timeout: 0 is less than or equal to the minimum of 0"
    ]
    assert errors(tool(timeout=2.5)) == []


def test_a_tool_without_description_is_a_warning_only() -> None:
    manifest, diagnostics = check({"name": "a", "input_schema": {"type": "object"}})
    assert manifest is not None
    assert [(d.level, d.path) for d in diagnostics] == [("warning", "tools[0] (a)")]


# Tool schemas


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        (
            {"type": "string"},
            "tools[0] (get_forecast).input_schema.type: an input schema must have `type: object`",
        ),
        (
            {"properties": {}},
            "tools[0] (get_forecast).input_schema: an input schema must have `type: object`",
        ),
        (
            {"type": ["object", "null"]},
            "tools[0] (get_forecast).input_schema.type: an input schema must have",
        ),
    ],
)
def test_mcp_requires_object_schemas(schema: dict[str, Any], message: str) -> None:
    assert errors(tool(schema=schema))[0].startswith(message)


def test_output_schema_must_be_an_object_too() -> None:
    found = errors(tool(output_schema={"type": "array"}))
    assert found[0].startswith(
        "tools[0] (get_forecast).output_schema.type: an output schema must have"
    )


def test_metaschema_errors_are_all_collected() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "int"}, "b": {"minimum": "1"}},
        "required": "a",
    }
    assert errors(tool(schema=schema)) == [
        'tools[0] (get_forecast).input_schema.properties.a.type: "int" is not one of "array", '
        '"boolean", '
        '"integer", "null", "number", "object", "string"; did you mean \'integer\'?',
        "tools[0] (get_forecast).input_schema.properties.b.minimum: expected a number, got a "
        "string",
        "tools[0] (get_forecast).input_schema.required: expected a list, got a string",
    ]


def test_the_draft_named_in_dollar_schema_is_used() -> None:
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
            "n": {"type": "number", "exclusiveMinimum": 0},
        },
        "definitions": {"X": {"type": "string"}},
    }
    assert errors(tool(schema=draft7, examples=[{"arguments": {"pair": ["a", 1]}}])) == []
    bad = tool(schema=draft7, examples=[{"arguments": {"pair": ["a", "b"]}}])
    assert errors(bad) == [
        "tools[0] (get_forecast).examples[0].arguments.pair[1]: expected an integer, got a string"
    ]
    # A tuple `items` list is draft-07; in 2020-12 it is an error.
    del draft7["$schema"]
    assert errors(tool(schema=draft7))[0].startswith(
        "tools[0] (get_forecast).input_schema.properties.pair.items"
    )


def test_an_unknown_dialect_is_an_error() -> None:
    assert errors(tool(schema={"$schema": "https://example.com/x", "type": "object"})) == [
        "tools[0] (get_forecast).input_schema.$schema: unknown $schema 'https://example.com/x'; "
        "mcpgen reads draft-04, draft-06, draft-07, 2019-09 or 2020-12"
    ]


@pytest.mark.parametrize(
    "ref",
    [
        "#",
        "#/$defs/Node",
        "#/definitions/Old",
        "#/properties/b",
        "#/$defs/a~1b",
        "#/$defs/t~0x",
        "#/$defs/with%20space",
        "#/$defs/Node/properties/children/items",
        "#node",
        "urn:example:node",
    ],
)
def test_local_refs_resolve(ref: str) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": ref}, "b": {}},
        "$defs": {
            "Node": {
                "$anchor": "node",
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            },
            "Embedded": {"$id": "urn:example:node", "type": "string"},
            "a/b": {},
            "t~x": {},
            "with space": {},
        },
        "definitions": {"Old": {}},
    }
    assert errors(tool(schema=schema)) == []


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        (
            "#/$defs/Nope",
            "$ref '#/$defs/Nope' does not resolve: '#/$defs' has no 'Nope'; did you mean 'Node'?",
        ),
        (
            "#/definitions/Node",
            "$ref '#/definitions/Node' does not resolve: '#' has no 'definitions'",
        ),
        (
            "#/properties/a/items/3",
            "$ref '#/properties/a/items/3' does not resolve: '#/properties/a' has no 'items'",
        ),
        ("#missing", "$ref '#missing': no `$anchor: missing` here"),
    ],
)
def test_unresolvable_local_refs(ref: str, message: str) -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": ref}}, "$defs": {"Node": {}}}
    assert errors(tool(schema=schema)) == [
        f"tools[0] (get_forecast).input_schema.properties.a.$ref: {message}"
    ]


@pytest.mark.parametrize(
    "ref",
    [
        "https://example.com/s.json",
        "http://x/y#/z",
        "file:///etc/passwd",
        "other.json",
        "other.json#/defs/x",
    ],
)
def test_external_refs_are_refused_and_never_fetched(
    ref: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("a $ref was fetched")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    schema = {"type": "object", "properties": {"a": {"$ref": ref}}}
    found = errors(tool(schema=schema, examples=[{"arguments": {"a": 1}}]))
    assert found == [
        f"tools[0] (get_forecast).input_schema.properties.a.$ref: external $ref {ref!r} is "
        "refused: mcpgen never "
        "fetches schemas; copy the definition under `$defs` and refer to it as '#/$defs/<Name>'"
    ]


@pytest.mark.parametrize(
    "pattern",
    [r"^\p{L}+$", r"^(?=.*\d)(?<!x)\w+$", r"^(?<year>\d{4})$", r"^[\w\-]+$", r"\/", r"^\_$"],
)
def test_ecma_262_patterns_are_valid(pattern: str) -> None:
    schema = obj(a={"type": "string", "pattern": pattern})
    schema["patternProperties"] = {pattern: {}}
    assert errors(tool(schema=schema)) == []


def test_invalid_patterns_are_located_at_the_pattern() -> None:
    schema = obj(a={"type": "string", "pattern": "[a-"})
    schema["patternProperties"] = {"(x": {}}
    assert sorted(errors(tool(schema=schema))) == [
        'tools[0] (get_forecast).input_schema.patternProperties["(x"]: invalid regular '
        "expression '(x': "
        "Unbalanced parenthesis (patterns are ECMA-262)",
        "tools[0] (get_forecast).input_schema.properties.a.pattern: invalid regular expression "
        "'[a-': "
        "Unbalanced bracket (patterns are ECMA-262)",
    ]


# Examples


def test_examples_are_checked_with_ecma_regexes_and_located() -> None:
    schema = {
        "type": "object",
        "required": ["city"],
        "additionalProperties": False,
        "properties": {
            "city": {"type": "string", "pattern": r"^\p{Lu}"},
            "days": {"type": "integer", "maximum": 7},
        },
        "patternProperties": {r"^x-\p{L}+$": {"type": "string"}},
    }
    examples = [
        {"arguments": {"city": "Évian", "x-é": "ok"}},
        {"arguments": {"city": "paris", "days": 9, "x-1": "no"}},
    ]
    assert errors(tool(schema=schema, examples=examples)) == [
        "tools[0] (get_forecast).examples[1].arguments.city: 'paris' does not match the pattern "
        "'^\\p{Lu}'",
        "tools[0] (get_forecast).examples[1].arguments.days: 9 is greater than the maximum of 7",
        "tools[0] (get_forecast).examples[1].arguments.x-1: unknown key 'x-1'",
    ]


def test_example_errors_point_at_the_argument() -> None:
    text = (
        "name: a\nversion: '1'\ntools:\n  - name: t\n    description: d\n"
        "    input_schema: {type: object, properties: {days: {type: integer}}}\n"
        "    examples:\n      - arguments: {days: three}\n"
    )
    _, diagnostics = check_text(text, "m.yaml")
    assert [str(d) for d in diagnostics] == [
        "m.yaml:8:27: tools[0] (t).examples[0].arguments.days: expected an integer, got a string"
    ]


def test_examples_are_skipped_while_the_schema_is_broken() -> None:
    schema = obj(a={"$ref": "#/$defs/Missing"})
    found = errors(tool(schema=schema, examples=[{"arguments": {"a": 1}}]))
    assert len(found) == 1 and "does not resolve" in found[0]


def test_recursive_schemas_validate_examples() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#"}},
        },
    }
    good = {"arguments": {"name": "a", "children": [{"name": "b", "children": []}]}}
    bad = {"arguments": {"children": [{"children": [{"name": 1}]}]}}
    assert errors(tool(schema=schema, examples=[good, bad])) == [
        "tools[0] (get_forecast).examples[1].arguments.children[0].children[0].name: "
        'expected a string, got an integer; quote it: "1"'
    ]


# Public API


def test_diagnostics_are_sorted_by_position() -> None:
    text = Path(__file__).parents[2].joinpath("golden", "errors", "many_problems.yaml").read_text()
    _, diagnostics = check_text(text, "m.yaml")
    assert diagnostics == sorted(diagnostics)
    assert len({d.line for d in diagnostics}) >= 7


def test_load_manifest_raises_every_problem_at_once(tmp_path: Path) -> None:
    path = tmp_path / MANIFEST_FILENAME
    path.write_text("name: a\nversion: 1\ntools:\n  - name: a b\n    input_schema: {}\n")
    with pytest.raises(ManifestInvalid) as caught:
        load_manifest(path)
    assert [(d.line, d.level) for d in caught.value.diagnostics] == [
        (2, "error"),
        (4, "warning"),
        (4, "error"),
        (5, "error"),
    ]


def test_warnings_alone_do_not_raise(tmp_path: Path) -> None:
    path = tmp_path / MANIFEST_FILENAME
    path.write_text(
        "name: a\nversion: '1'\ntools:\n  - name: t\n    input_schema: {type: object}\n"
    )
    assert load_manifest(path).tools[0].name == "t"
    manifest, diagnostics = check_manifest(path)
    assert manifest is not None and [d.level for d in diagnostics] == ["warning"]


def test_diagnostics_name_the_file_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "weather").mkdir()
    path = tmp_path / "weather" / MANIFEST_FILENAME
    path.write_text("name: a\n")
    monkeypatch.chdir(tmp_path)
    assert check_manifest(path)[1][0].file == "weather/mcpgen.yaml"
    assert check_manifest(Path("weather/mcpgen.yaml"))[1][0].file == "weather/mcpgen.yaml"


def test_bytes_that_are_not_utf8_are_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / MANIFEST_FILENAME
    path.write_bytes(b"name: a\nversion: '\xff'\n")
    manifest, diagnostics = check_manifest(path)
    assert manifest is None
    assert (diagnostics[0].line, diagnostics[0].col) == (2, 11)
    assert "not UTF-8" in diagnostics[0].message


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / MANIFEST_FILENAME
    path.write_bytes("\ufeffname: a\nversion: '1'\ntools: []\n".encode())
    assert check_manifest(path)[1] == []


def test_find_manifest(tmp_path: Path) -> None:
    with pytest.raises(McpgenError, match=r"no mcpgen\.yaml in"):
        find_manifest(tmp_path)
    with pytest.raises(McpgenError, match="does not exist"):
        find_manifest(tmp_path / "other.yaml")
    (tmp_path / MANIFEST_FILENAME).write_text("name: a\n")
    assert find_manifest(tmp_path) == tmp_path / MANIFEST_FILENAME
    assert find_manifest(tmp_path / MANIFEST_FILENAME) == tmp_path / MANIFEST_FILENAME


def test_manifest_json_schema_is_a_documented_2020_12_schema() -> None:
    schema = manifest_json_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    assert schema["$defs"]["tool"]["additionalProperties"] is False
    for name, prop in [
        *schema["properties"].items(),
        *schema["$defs"]["tool"]["properties"].items(),
    ]:
        assert "description" in prop or "$ref" in prop, name
    assert manifest_json_schema() == schema


def test_a_150_tool_manifest_validates_quickly() -> None:
    properties = {
        f"p{i}": {"type": "string", "pattern": r"^\p{L}", "description": "x" * 50}
        for i in range(12)
    }
    tools = [
        tool(
            f"tool_{i}",
            schema={
                "type": "object",
                "properties": {**properties, f"own{i}": {}},
                "required": ["p0"],
            },
            examples=[{"arguments": {"p0": "abc"}}],
        )
        for i in range(150)
    ]
    text = dump({"name": "big", "version": "1", "tools": tools})
    started = time.perf_counter()
    manifest, diagnostics = check_text(text, "m.yaml")
    assert manifest is not None
    assert [d.message for d in diagnostics] == [  # more tools than hosts take: warnings
        "vscode: 150 tools: VS Code uses at most 128 tools across all servers",
        "windsurf: 150 tools: Windsurf uses at most 100 tools across all servers",
    ]
    assert time.perf_counter() - started < 5  # about 0.5 s on a slow CI core


# Never an exception

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
SCHEMA_KEYS = st.sampled_from(
    [
        "type",
        "properties",
        "items",
        "$ref",
        "pattern",
        "patternProperties",
        "required",
        "$defs",
        "anyOf",
        "$schema",
        "additionalProperties",
        "enum",
    ]
)
SCHEMAS = st.recursive(
    st.dictionaries(
        SCHEMA_KEYS,
        JSON_SCALARS | st.sampled_from(["object", "#", "#/$defs/a", "(", "http://x"]),
        max_size=4,
    ),
    lambda inner: st.dictionaries(
        SCHEMA_KEYS,
        inner
        | st.lists(inner, max_size=2)
        | st.dictionaries(st.sampled_from(["a", "b", "(", "^a"]), inner, max_size=2),
        max_size=4,
    ),
    max_leaves=10,
)
TOOLS = st.fixed_dictionaries(
    {"name": st.sampled_from(["a", "a-b", "a_b", "a b", ""]) | st.text(max_size=5)},
    optional={
        "input_schema": SCHEMAS,
        "inputSchema": SCHEMAS,
        "output_schema": SCHEMAS,
        "examples": st.lists(
            st.fixed_dictionaries({}, optional={"arguments": JSON_VALUES}), max_size=2
        ),
        "python_name": st.sampled_from(["x", "class", "1a"]),
        "renamed_from": JSON_VALUES,
        "description": JSON_SCALARS,
        "annotations": JSON_VALUES,
        "timeout": JSON_SCALARS,
    },
)
MANIFESTS = st.fixed_dictionaries(
    {},
    optional={
        "name": JSON_SCALARS,
        "version": JSON_SCALARS,
        "package": JSON_SCALARS,
        "env": JSON_VALUES,
        "tools": st.lists(TOOLS, max_size=3),
        "format": JSON_SCALARS,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MANIFESTS)
def test_any_manifest_shaped_data_gives_diagnostics_never_an_exception(
    data: dict[str, Any],
) -> None:
    manifest, diagnostics = check_text(dump(data), "m.yaml")
    assert (manifest is None) == any(d.level == "error" for d in diagnostics)
    if manifest is not None:
        json.dumps([t.wire() for t in manifest.tools])


def test_refs_inside_an_id_resolve_against_that_resource() -> None:
    inner = {"$id": "sub/", "$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}}
    schema = {"type": "object", "properties": {"a": inner}, "$defs": {"y": {}}}
    assert errors(tool(schema=schema, examples=[{"arguments": {"a": "s"}}])) == []
    del inner["$defs"]
    found = errors(tool(schema=schema))
    assert found == [
        "tools[0] (get_forecast).input_schema.properties.a.$ref: $ref '#/$defs/x' does not "
        "resolve: "
        "'#' has no '$defs'"
    ]


def test_a_ref_to_the_schemas_own_absolute_id_is_local() -> None:
    schema = {
        "$id": "https://x.example/a.json",
        "type": "object",
        "properties": {
            "b": {"$ref": "https://x.example/a.json#/$defs/B"},
            "c": {"$ref": "https://x.example/a.json"},
            "d": {"$ref": "a.json#/$defs/B"},
        },
        "$defs": {"B": {"type": "string"}},
    }
    example = {"arguments": {"b": "text", "d": "text"}}
    assert errors(tool(schema=schema, examples=[example])) == []
    schema["properties"]["e"] = {"$ref": "https://x.example/other.json#/$defs/B"}
    assert errors(tool(schema=schema)) == [
        "tools[0] (get_forecast).input_schema.properties.e.$ref: external $ref "
        "'https://x.example/other.json#/$defs/B' is refused: mcpgen never fetches schemas; copy "
        "the definition under `$defs` and refer to it as '#/$defs/<Name>'"
    ]


@pytest.mark.parametrize(
    ("defs", "at", "route"),
    [
        ({"a": {"$ref": "#/$defs/a"}}, "$defs.a", "'#/$defs/a' → here"),
        (
            {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
            "$defs.a",
            "'#/$defs/b' → '#/$defs/a' → here",
        ),
        (
            {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}},
            "$defs.a.allOf[0]",
            "'#/$defs/b' → '#/$defs/a' → here",
        ),
    ],
)
def test_a_ref_loop_that_stays_on_the_same_value_is_an_error_at_its_ref(
    defs: dict[str, Any], at: str, route: str
) -> None:
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}}, "$defs": defs}
    first = route.split(" ", maxsplit=1)[0]
    assert errors(tool(schema=schema, examples=[{"arguments": {"x": 1}}])) == [
        f"tools[0] (get_forecast).input_schema.{at}.$ref: $ref {first} loops back here ({route}) "
        "without passing through a property or an array item: validation would never end"
    ]


def test_a_ref_loop_is_located_at_the_refs_line() -> None:
    text = (
        "name: a\nversion: '1'\ntools:\n  - name: t\n    description: d\n"
        "    input_schema:\n      type: object\n      $defs:\n"
        "        A: {$ref: '#/$defs/B'}\n        B: {$ref: '#/$defs/A'}\n"
    )
    _, diagnostics = check_text(text, "m.yaml")
    assert [(d.line, d.col, d.path) for d in diagnostics] == [
        (9, 19, "tools[0] (t).input_schema.$defs.A.$ref")
    ]


def test_the_whole_schema_referring_to_itself_in_place_is_an_error() -> None:
    found = errors(tool(schema={"type": "object", "$ref": "#"}))
    assert found == [
        "tools[0] (get_forecast).input_schema.$ref: $ref '#' loops back here ('#' → here) "
        "without passing through a property or an array item: validation would never end"
    ]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"child": {"$ref": "#"}}},
        {"type": "object", "properties": {"xs": {"type": "array", "items": {"$ref": "#"}}}},
        {
            "type": "object",
            "properties": {"t": {"$ref": "#/$defs/T"}},
            "$defs": {
                "T": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/U"}]},
                "U": {"type": "object", "additionalProperties": {"$ref": "#/$defs/T"}},
            },
        },
        {
            "type": "object",
            "properties": {"t": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "string"}},
        },
    ],
)
def test_recursion_through_a_property_or_an_item_is_recursive_data(
    schema: dict[str, Any],
) -> None:
    assert errors(tool(schema=schema)) == []


@pytest.mark.parametrize("value", ["optional", "required"])
def test_task_support_is_published_as_the_server_runs_such_calls_as_tasks(value: str) -> None:
    manifest, diagnostics = check(tool(execution={"taskSupport": value}))
    assert diagnostics == [] and manifest is not None
    assert manifest.tools[0].wire()["execution"] == {"taskSupport": value}


def test_task_support_outside_mcp_values_is_an_error_at_its_key() -> None:
    text = (
        "name: a\nversion: '1'\ntools:\n  - name: t\n    description: d\n"
        "    execution: {taskSupport: sometimes}\n    input_schema: {type: object}\n"
    )
    manifest, diagnostics = check_text(text, "m.yaml")
    assert manifest is None
    assert [str(d) for d in diagnostics] == [
        'm.yaml:6:30: tools[0] (t).execution.taskSupport: "sometimes" is not one of '
        '"forbidden", "optional", "required"'
    ]


def test_task_support_forbidden_says_what_the_server_does_and_is_kept() -> None:
    manifest, diagnostics = check(tool(execution={"taskSupport": "forbidden"}))
    assert diagnostics == [] and manifest is not None
    assert manifest.tools[0].wire()["execution"] == {"taskSupport": "forbidden"}


@pytest.mark.parametrize(
    ("python_name", "reason"),
    [
        ("__init__", "is a name Python reserves"),
        ("__main__", "is a name Python reserves"),
        ("_generated", "is a module the generated package needs"),
        ("handlers", "is a module the generated package needs"),
    ],
)
def test_python_names_that_would_replace_package_files_are_errors(
    python_name: str, reason: str
) -> None:
    (found,) = errors(tool(python_name=python_name))
    assert found.startswith(
        f"tools[0] (get_forecast).python_name: python_name '{python_name}' {reason}"
    )


@pytest.mark.parametrize("python_name", ["_private", "init", "generated", "handler", "__x"])
def test_python_names_close_to_reserved_ones_are_fine(python_name: str) -> None:
    assert errors(tool(python_name=python_name)) == []


OPENAPI_TOOL = """\
name: a
version: '1'
tools:
  - name: t
    description: d
    input_schema:
      type: object
      properties:
        name: {type: string, nullable: true}
        kind: {type: string, enum: [a, b], nullable: true}
        nullable: {type: string, example: x}
        pick:
          oneOf:
            - {type: object, properties: {k: {const: a}}, required: [k]}
          discriminator: {propertyName: k}
        doc: {type: object, xml: {name: d}, externalDocs: {url: 'https://x.invalid'}}
      required: [name]
"""


def test_openapi_only_keywords_are_located_warnings_that_say_what_to_write() -> None:
    manifest, diagnostics = check_text(OPENAPI_TOOL, "m.yaml")
    assert manifest is not None  # warnings only
    ignored = "is OpenAPI's, not JSON Schema's: JSON Schema, so the server, ignores it"
    where = "tools[0] (t).input_schema.properties"
    assert [str(d) for d in diagnostics] == [
        f"m.yaml:9:30: {where}.name.nullable: warning: `nullable` {ignored} and refuses null "
        'here (the models take no None either); to allow null, write `type: ["string", "null"]`',
        f"m.yaml:10:44: {where}.kind.nullable: warning: `nullable` {ignored} and refuses null "
        'here (the models take no None either); to allow null, write `type: ["string", "null"]` '
        "and add null to `enum`",
        f"m.yaml:11:34: {where}.nullable.example: warning: `example` {ignored}; write "
        "`examples: [...]` (a list) instead",
        f"m.yaml:15:11: {where}.pick.discriminator: warning: `discriminator` {ignored}; the "
        "`oneOf`/`anyOf` branches alone decide, and so do the models; to make the tag decide, "
        "give each branch a `const` for the tag property and list it in `required`",
        f"m.yaml:16:29: {where}.doc.xml: warning: `xml` {ignored}; remove it",
        f"m.yaml:16:45: {where}.doc.externalDocs: warning: `externalDocs` {ignored}; put the "
        "link in `description` instead",
    ]


def test_openapi_only_keywords_in_a_template_variables_schema_are_located_warnings() -> None:
    text = """\
name: a
version: '1'
tools: []
resource_templates:
  - uri_template: pets://{id}
    name: pet
    description: A pet.
    parameters: {id: {type: integer, nullable: true, example: 3}}
"""
    manifest, diagnostics = check_text(text, "m.yaml")
    assert manifest is not None  # warnings only
    lines = [str(d) for d in diagnostics]
    assert len(lines) == 2, lines
    assert lines[0].startswith(
        "m.yaml:8:38: resource_templates[0].parameters.id.nullable: warning: `nullable`"
    ), lines
    assert lines[1].startswith("m.yaml:8:54: resource_templates[0].parameters.id.example"), lines


def test_json_schema_annotations_named_like_openapi_ones_are_not_warned_about() -> None:
    schema = obj(example={"type": "string", "readOnly": True, "deprecated": True})
    schema["examples"] = [{"example": "x"}]
    manifest, diagnostics = check(tool(schema={**schema, "const": {"nullable": True}}))
    assert diagnostics == [] and manifest is not None


@pytest.mark.parametrize(
    ("bound", "instead"),
    [
        ("exclusiveMinimum: true", "write `exclusiveMinimum: 0` in place of `minimum: 0`"),
        ("exclusiveMinimum: false", "remove it"),
    ],
)
def test_a_draft_04_boolean_bound_says_what_to_write(bound: str, instead: str) -> None:
    text = OPENAPI_TOOL.split("      properties:", maxsplit=1)[0] + (
        f"      properties:\n        count: {{type: integer, minimum: 0, {bound}}}\n"
    )
    manifest, diagnostics = check_text(text, "m.yaml")
    keyword, value = bound.split(": ")
    assert manifest is None
    assert [str(d) for d in diagnostics] == [
        f"m.yaml:9:62: tools[0] (t).input_schema.properties.count.{keyword}: `{bound}` is draft-04 "
        f"(and OpenAPI 3.0) style; in 2020-12 `{keyword}` is the bound itself, a number: "
        f"{instead} (or declare `$schema: http://json-schema.org/draft-04/schema#`)"
    ]
    draft_4 = {"$schema": "http://json-schema.org/draft-04/schema#"}
    schema = {**draft_4, **obj(count={"type": "integer", "minimum": 0, keyword: value == "true"})}
    assert check(tool(schema=schema))[1] == []
