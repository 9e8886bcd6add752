"""A fresh project is green: `mcpgen new` on a valid manifest gives a project whose own tests
pass, run by pytest in a real venv, whatever its schemas (recursive ones, which
hypothesis-jsonschema cannot draw from) and however many tools it has. The time each
project's tests took is printed (`-s`), not asserted."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.project_venv import ProjectVenv, run_mcpgen

TREE = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/node"}},
    "required": ["root"],
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
            "required": ["name"],
            "additionalProperties": False,
        }
    },
}
# The whole schema is its own child: `$ref: "#"`.
LINKED_LIST = {
    "type": "object",
    "properties": {"value": {"type": "integer"}, "next": {"$ref": "#"}},
    "required": ["value"],
}
# Two definitions that refer to each other, one through a nullable branch.
MUTUAL = {
    "type": "object",
    "properties": {"expression": {"$ref": "#/$defs/expression"}},
    "$defs": {
        "expression": {
            "anyOf": [
                {"type": "number"},
                {"$ref": "#/$defs/operation"},
            ]
        },
        "operation": {
            "type": "object",
            "properties": {
                "operator": {"enum": ["+", "-", "*", "/"]},
                "operands": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/expression"},
                    "minItems": 2,
                },
                "note": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/operation"}]},
            },
            "required": ["operator", "operands"],
        },
    },
}
# Free-form JSON everywhere: what hypothesis-jsonschema draws slowest.
FREE_FORM = {
    "type": "object",
    "properties": {
        "services": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "settings": {"type": "object"},
                    "dependencies": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"name": {"type": "string"}}},
                    },
                },
            },
        },
        "metadata": {},
    },
}
PATTERNED = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "pattern": "^(?<letters>[A-Z]{2})-\\d{3}$"},
        "word": {"type": "string", "pattern": "^(\\w+)\\s\\1$"},
    },
    "patternProperties": {"^x-\\p{L}+$": {"type": "string"}},
    "unevaluatedProperties": False,
}
PLAIN = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
    "required": ["city"],
}
# Valid JSON Schema that no instance meets, which hypothesis-jsonschema fails to draw from.
NOTHING_MEETS = {
    "type": "object",
    "properties": {"code": {"type": "string", "pattern": "^\\d{3}$", "minLength": 5}},
    "allOf": [
        {"properties": {"name": {"minLength": 1}}},
        {"properties": {"name": {"maxLength": 0}}},
    ],
    "required": ["code", "name"],
}
RECURSIVE_SCHEMAS = {"tree": TREE, "linked_list": LINKED_LIST, "mutual": MUTUAL}
SHAPES = {**RECURSIVE_SCHEMAS, "free_form": FREE_FORM, "patterned": PATTERNED, "plain": PLAIN}
SHAPES["nothing_meets"] = NOTHING_MEETS
EXAMPLES: dict[str, Any] = {
    "tree": {"root": {"name": "a", "children": [{"name": "b"}]}},
    "linked_list": {"value": 1, "next": {"value": 2}},
    "mutual": {"expression": {"operator": "+", "operands": [1, 2]}},
    "plain": {"city": "Oslo"},
}


def manifest(name: str, tools: dict[str, dict[str, Any]]) -> dict[str, Any]:
    entries = []
    for tool, schema in tools.items():
        entry: dict[str, Any] = {"name": tool, "description": f"The {tool} tool."}
        entry["input_schema"] = schema
        shape = tool.rsplit("_", 1)[0] if tool[-1].isdigit() else tool
        if shape in EXAMPLES:
            entry["examples"] = [{"arguments": EXAMPLES[shape]}]
        entries.append(entry)
    return {"name": name, "version": "0.1.0", "tools": entries}


def forty_tools() -> dict[str, dict[str, Any]]:
    names = sorted(SHAPES)
    return {f"{names[i % len(names)]}_{i}": SHAPES[names[i % len(names)]] for i in range(40)}


def fresh_project(tmp_path: Path, document: dict[str, Any]) -> Path:
    source = tmp_path / "input" / "mcpgen.yaml"
    source.parent.mkdir(parents=True)
    source.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")  # JSON is YAML
    root = tmp_path / "project"
    run_mcpgen("new", "--manifest", str(source), "--dir", str(root), "--no-input", "--no-git")
    return root


@pytest.mark.parametrize(
    "document",
    [
        pytest.param(manifest("recursive", RECURSIVE_SCHEMAS), id="recursive-schemas"),
        pytest.param(manifest("forty", forty_tools()), id="forty-tools"),
    ],
)
def test_a_fresh_project_is_green(
    tmp_path: Path, project_venv: ProjectVenv, document: dict[str, Any]
) -> None:
    root = fresh_project(tmp_path, document)
    started = time.monotonic()
    done = project_venv.pytest(root, with_src=True)
    took = time.monotonic() - started
    print(f"\n{document['name']}: {len(document['tools'])} tools, project tests took {took:.1f} s")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
