"""Host limits reported at generate time, and `inline_refs`."""

from __future__ import annotations

from typing import Any

from mcpgen.hosts import host_limit_diagnostics
from mcpgen.manifest.model import build_manifest
from mcpgen.schema_refs import inline_refs


def _manifest(*tools: dict[str, Any], name: str = "weather") -> Any:
    return build_manifest({"name": name, "tools": list(tools)})


def _tool(name: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "input_schema": schema or {"type": "object"}}


def test_clean_manifest_has_no_warnings() -> None:
    assert host_limit_diagnostics(_manifest(_tool("get_forecast"))) == []


def test_claude_code_prefix_length_and_cursor_combined_length() -> None:
    long_name = "a" * 52  # mcp__weather__ (14) + 52 = 66 > 64; 7 + 52 = 59 <= 60
    found = host_limit_diagnostics(_manifest(_tool(long_name)))
    assert [w.host for w in found] == ["claude-code"]
    found = host_limit_diagnostics(_manifest(_tool("b" * 54)))
    assert {w.host for w in found} == {"claude-code", "cursor"}
    assert "61 characters" in next(w.message for w in found if w.host == "cursor")


def test_name_pattern_and_reserved_server_name() -> None:
    found = host_limit_diagnostics(_manifest(_tool("lights.set"), name="workspace"))
    assert {w.host for w in found} == {"*", "claude-code"}
    assert any("reserved" in w.message for w in found)


def test_schema_features() -> None:
    union = _tool("pick", {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]})
    refs = _tool(
        "refs",
        {
            "type": "object",
            "$defs": {"P": {"type": "string"}},
            "properties": {"p": {"$ref": "#/$defs/P"}},
        },
    )
    found = host_limit_diagnostics(_manifest(union, refs))
    assert {(w.host, w.tool) for w in found} == {
        ("claude-code", "pick"),
        ("claude-desktop", "pick"),
        ("*", "refs"),
    }
    assert any("--inline-refs" in w.message for w in found)
    assert all(str(w) for w in found)


def test_windsurf_tool_count() -> None:
    found = host_limit_diagnostics(_manifest(*[_tool(f"t{i}") for i in range(101)]))
    assert [w.host for w in found] == ["windsurf"]


def test_inline_refs_dereferences_and_drops_defs() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "Point": {"type": "object", "properties": {"x": {"$ref": "#/$defs/N"}}},
            "N": {"type": "number"},
        },
        "properties": {
            "a": {"$ref": "#/$defs/Point", "description": "A point"},
            "b": {"items": {"$ref": "#/$defs/N"}, "type": "array"},
        },
    }
    before = repr(schema)
    result = inline_refs(schema)
    assert repr(schema) == before  # input untouched
    assert result.recursive == () and result.unresolved == ()
    assert result.schema == {
        "type": "object",
        "properties": {
            "a": {
                "type": "object",
                "properties": {"x": {"type": "number"}},
                "description": "A point",
            },
            "b": {"items": {"type": "number"}, "type": "array"},
        },
    }


def test_inline_refs_keeps_and_reports_recursion() -> None:
    schema = {
        "type": "object",
        "definitions": {
            "Node": {
                "type": "object",
                "properties": {
                    "children": {"type": "array", "items": {"$ref": "#/definitions/Node"}}
                },
            }
        },
        "properties": {"root": {"$ref": "#/definitions/Node"}, "bad": {"$ref": "#/nope"}},
    }
    result = inline_refs(schema)
    assert result.recursive == ("#/definitions/Node",)
    assert result.unresolved == ("#/nope",)
    assert "Node" in result.schema["definitions"]
    root = result.schema["properties"]["root"]
    assert root["properties"]["children"]["items"] == {"$ref": "#/definitions/Node"}


def test_inline_refs_overlapping_siblings_use_all_of() -> None:
    schema = {
        "$defs": {"O": {"type": "object", "properties": {"a": {}}}},
        "properties": {"x": {"$ref": "#/$defs/O", "properties": {"b": {}}}},
    }
    x = inline_refs(schema).schema["properties"]["x"]
    assert x == {"properties": {"b": {}}, "allOf": [{"type": "object", "properties": {"a": {}}}]}
