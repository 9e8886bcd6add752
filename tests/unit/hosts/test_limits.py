"""Host limits: printed, located, by `validate` and `generate`; listed in hosts/README.md;
and `inline_refs`."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from mcpgen.hosts import host_limit_diagnostics
from mcpgen.manifest.model import build_manifest
from mcpgen.schema.refs import inline_refs
from tests.support.cli_runner import run_cli

REPO = Path(__file__).resolve().parents[3]


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
    advice = next(w.message for w in found if w.tool == "refs")
    assert "--inline-refs" not in advice  # no such flag: the manifest key does it
    assert "`inline_refs: true` in mcpgen.yaml" in advice
    assert all(str(w) for w in found)


def test_no_ref_warning_once_the_manifest_inlines_refs() -> None:
    refs = _tool(
        "refs", {"type": "object", "$defs": {"P": {}}, "properties": {"p": {"$ref": "#/$defs/P"}}}
    )
    manifest = build_manifest({"name": "weather", "inline_refs": True, "tools": [refs]})
    assert host_limit_diagnostics(manifest) == []


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


# Over Claude Code's limit (with `mcp__weather__`) and Cursor's (with `weather`).
LONG_NAME = "fetch_the_daily_forecast_for_every_city_in_the_world_now"
LIMITED = f"""\
name: weather
version: 0.1.0
tools:
  - name: get_forecast
    description: Forecast.
    input_schema: {{type: object}}
  - name: {LONG_NAME}
    description: Long.
    inputSchema:
      type: object
      anyOf: [{{required: [a]}}, {{required: [b]}}]
      $defs: {{P: {{type: string}}}}
      properties: {{a: {{$ref: "#/$defs/P"}}, b: {{type: string}}}}
"""


def _limit_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "warning:" in line]


def test_validate_prints_each_limit_once_at_its_place(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(LIMITED)
    done = run_cli("validate", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = _limit_lines(done.stderr)
    name_at = f"mcpgen.yaml:7:11: tools[1] ({LONG_NAME}).name: warning:"
    assert [line for line in lines if line.startswith(name_at)] == [
        f"{name_at} claude-code: `mcp__weather__{LONG_NAME}` is 70 characters, over Claude "
        "Code's 64",
        f"{name_at} cursor: server and tool name together are 63 characters, over Cursor's 60; "
        "Cursor drops the tool",
    ]
    schema_at = f"mcpgen.yaml:10:7: tools[1] ({LONG_NAME}).inputSchema: warning:"
    assert sorted(line for line in lines if line.startswith(schema_at)) == [
        f"{schema_at} all hosts: input schema uses $ref/$defs, which some hosts and model APIs "
        "do not resolve; set `inline_refs: true` in mcpgen.yaml to publish it with $refs inlined",
        f"{schema_at} claude-code, claude-desktop: input schema has top-level anyOf, which the "
        "Anthropic API rejects; put the union inside a property",
    ]
    assert "--inline-refs" not in done.stderr


def test_generate_prints_the_limits_too(tmp_path: Path) -> None:
    project = tmp_path / "weather"
    shutil.copytree(REPO / "examples" / "weather", project)
    manifest = project / "mcpgen.yaml"
    text = manifest.read_text()
    manifest.write_text(text.replace("- name: get_alerts", "- name: get.alerts", 1))
    done = run_cli("generate", str(project))
    assert done.returncode == 0, done.stderr
    (line,) = [x for x in _limit_lines(done.stderr) if "(get.alerts).name" in x]
    assert line.startswith("mcpgen.yaml:") or ":" in line.split(" ")[0]
    assert "all hosts: model APIs accept only [A-Za-z0-9_-]{1,64}" in line
    again = run_cli("generate", str(project))  # a run that writes nothing says it again
    assert line in again.stderr


def test_server_level_limits_point_at_the_name_and_the_tools(tmp_path: Path) -> None:
    tools = "".join(
        f"  - {{name: t{i}, description: T, input_schema: {{type: object}}}}\n" for i in range(101)
    )
    (tmp_path / "mcpgen.yaml").write_text(f"name: workspace\nversion: 0.1.0\ntools:\n{tools}")
    done = run_cli("validate", str(tmp_path))
    lines = _limit_lines(done.stderr)
    assert any(
        ":1:7: name: warning: claude-code: the server name `workspace` is reserved" in x
        for x in lines
    )
    assert any(":4:3: tools: warning: windsurf: 101 tools" in x for x in lines)


def test_vs_code_tool_count() -> None:
    found = host_limit_diagnostics(_manifest(*[_tool(f"t{i}") for i in range(129)]))
    assert [(w.host, w.message) for w in found] == [
        ("vscode", "129 tools: VS Code uses at most 128 tools across all servers"),
        ("windsurf", "129 tools: Windsurf uses at most 100 tools across all servers"),
    ]
