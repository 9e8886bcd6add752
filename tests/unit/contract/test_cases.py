"""The client-contract table: each change to a manifest, and whether it breaks a client built
against the previous version (judged by what that client sends and expects)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from mcpgen.contract import compare
from mcpgen.manifest import Manifest, check_text

JSON = dict[str, Any]

BASE: JSON = {
    "name": "notes",
    "version": "1.2.3",
    "description": "Notes",
    "tools": [
        {
            "name": "search",
            "description": "Search notes.",
            "annotations": {"readOnlyHint": True},
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 1, "maxLength": 100},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50},
                    "mode": {"type": "string", "enum": ["fast", "full"]},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            "output_schema": {
                "type": "object",
                "properties": {
                    "hits": {"type": "array", "items": {"type": "string"}},
                    "total": {"type": "integer"},
                    "status": {"type": "string", "enum": ["ok", "partial"]},
                },
                "required": ["hits", "total"],
            },
        },
        {
            "name": "ping",
            "description": "Ping.",
            "input_schema": {"type": "object", "properties": {"note": {"type": "string"}}},
        },
    ],
    "resources": [
        {"uri": "notes://index", "name": "index", "text": "hi", "mime_type": "text/plain"}
    ],
    "resource_templates": [
        {
            "uri_template": "notes://n/{id}",
            "name": "note",
            "parameters": {"id": {"type": "string", "pattern": "^[0-9]+$"}},
        }
    ],
    "prompts": [
        {
            "name": "summarize",
            "template": "Summarize {topic} {tone}",
            "arguments": [{"name": "topic", "required": True}, {"name": "tone"}],
        }
    ],
}


def manifest(data: JSON) -> Manifest:
    built, diagnostics = check_text(json.dumps(data), "mcpgen.yaml")
    assert built is not None, [str(d) for d in diagnostics]
    return built


def tool(data: JSON, name: str = "search") -> JSON:
    found: JSON = next(t for t in data["tools"] if t["name"] == name)
    return found


def arg(data: JSON, name: str, tool_name: str = "search") -> JSON:
    properties: JSON = tool(data, tool_name)["input_schema"]["properties"]
    found: JSON = properties.setdefault(name, {})
    return found


def field(data: JSON, name: str) -> JSON:
    properties: JSON = tool(data)["output_schema"]["properties"]
    found: JSON = properties[name]
    return found


def _rename(data: JSON, kind: str, old: str, new: str, *, keep: bool) -> None:
    entry = next(e for e in data[kind] if e["name"] == old)
    entry["name"] = new
    if keep:
        entry["renamed_from"] = old


def _set(target: Callable[[JSON], JSON], key: str, value: Any) -> Callable[[JSON], None]:
    return lambda data: target(data).__setitem__(key, value)


def _drop(target: Callable[[JSON], JSON], key: str) -> Callable[[JSON], None]:
    return lambda data: target(data).pop(key)


def _search_input(data: JSON) -> JSON:
    schema: JSON = tool(data)["input_schema"]
    return schema


def _add_tool(data: JSON) -> None:
    data["tools"].append({"name": "count", "input_schema": {"type": "object"}})


def _add_required_arg(data: JSON) -> None:
    arg(data, "owner")["type"] = "string"
    _search_input(data)["required"].append("owner")


def _make_required(data: JSON) -> None:
    _search_input(data)["required"].append("limit")


def _make_optional(data: JSON) -> None:
    _search_input(data)["required"].remove("query")


def _remove_open_arg(data: JSON) -> None:
    tool(data, "ping")["input_schema"]["properties"].pop("note")


def _field_optional(data: JSON) -> None:
    tool(data)["output_schema"]["required"].remove("total")


def _remove_resource(data: JSON) -> None:
    data["resources"] = []


def _move_resource(data: JSON) -> None:
    data["resources"][0] |= {"uri": "notes://all", "name": "all", "renamed_from": "index"}


def _rename_resource(data: JSON) -> None:
    data["resources"][0] |= {"name": "all", "renamed_from": "index"}


def _add_prompt_arg(data: JSON, *, required: bool) -> None:
    data["prompts"][0]["arguments"].append({"name": "length", "required": required})


def _prompt_arg(data: JSON, name: str) -> JSON:
    found: JSON = next(a for a in data["prompts"][0]["arguments"] if a["name"] == name)
    return found


def _remove_prompt_arg(data: JSON) -> None:
    data["prompts"][0]["arguments"].pop()
    data["prompts"][0]["template"] = "Summarize {topic}"


def _drop_alias(data: JSON) -> None:
    # From a base that already answered a former name: the alias goes.
    tool(data, "ping").pop("renamed_from")


Change = Callable[[JSON], None]
B, C = "breaking", "compatible"

# (case, change, verdicts the changes must have, words the report must say)
CASES: list[tuple[str, Change, set[str], str]] = [
    ("tool removed", lambda d: d["tools"].pop(), {B}, "removed"),
    ("tool added", _add_tool, {C}, "added"),
    (
        "tool renamed without renamed_from",
        lambda d: _rename(d, "tools", "ping", "pong", keep=False),
        {B, C},
        "add `renamed_from: ping`",
    ),
    (
        "tool renamed with renamed_from",
        lambda d: _rename(d, "tools", "ping", "pong", keep=True),
        {C},
        "renamed from `ping`",
    ),
    ("new required argument", _add_required_arg, {B}, "required"),
    ("new optional argument", lambda d: arg(d, "owner").update(type="string"), {C}, "optional"),
    ("argument made required", _make_required, {B}, "now required"),
    ("argument made optional", _make_optional, {C}, "now optional"),
    (
        "argument removed, closed object",
        lambda d: _search_input(d)["properties"].pop("mode"),
        {B},
        "refused",
    ),
    ("argument removed, open object", _remove_open_arg, {C}, "ignored"),
    (
        "object closed",
        _set(lambda d: tool(d, "ping")["input_schema"], "additionalProperties", False),
        {B},
        "no other field",
    ),
    ("object opened", _drop(_search_input, "additionalProperties"), {C}, "accepted now"),
    ("type narrowed", lambda d: arg(d, "limit").update(type="string"), {B}, "changed type"),
    ("type widened", lambda d: arg(d, "limit").update(type=["integer", "string"]), {C}, "wider"),
    ("number to integer", lambda d: arg(d, "note", "ping").update(type="integer"), {B}, "type"),
    ("enum value removed", lambda d: arg(d, "mode").update(enum=["fast"]), {B}, "no longer"),
    (
        "enum value added",
        lambda d: arg(d, "mode").update(enum=["fast", "full", "deep"]),
        {C},
        "also accepts",
    ),
    ("enum added", lambda d: arg(d, "note", "ping").update(enum=["a"]), {B}, "limited"),
    ("enum removed", _drop(lambda d: arg(d, "mode"), "enum"), {C}, "no longer limited"),
    ("minimum raised", lambda d: arg(d, "limit").update(minimum=5), {B}, "minimum"),
    ("minimum lowered", lambda d: arg(d, "limit").update(minimum=0), {C}, "wider"),
    ("maximum lowered", lambda d: arg(d, "limit").update(maximum=10), {B}, "maximum"),
    ("maximum removed", _drop(lambda d: arg(d, "limit"), "maximum"), {C}, "wider"),
    ("maxLength lowered", lambda d: arg(d, "query").update(maxLength=10), {B}, "maxLength"),
    ("minLength added", lambda d: arg(d, "note", "ping").update(minLength=3), {B}, "minLength"),
    ("pattern added", lambda d: arg(d, "query").update(pattern="^[a-z]+$"), {B}, "pattern"),
    (
        "pattern removed",
        _drop(lambda d: d["resource_templates"][0]["parameters"]["id"], "pattern"),
        {C},
        "pattern",
    ),
    (
        "argument description",
        lambda d: arg(d, "query").update(description="Words"),
        {C},
        "description",
    ),
    ("tool description", lambda d: tool(d).update(description="Find notes."), {C}, "description"),
    ("tool title", lambda d: tool(d).update(title="Search"), {C}, "title"),
    ("argument default", lambda d: arg(d, "limit").update(default=10), {C}, "default changed"),
    (
        "argument moved behind a $ref",
        lambda d: tool(d, "ping")["input_schema"].update(
            properties={"note": {"$ref": "#/$defs/note"}},
            **{"$defs": {"note": {"type": "string"}}},
        ),
        {B},
        "changed type from string to note",
    ),
    (
        "annotations",
        lambda d: tool(d).update(annotations={"readOnlyHint": False}),
        {C},
        "annotations",
    ),
    (
        "output field removed",
        lambda d: tool(d)["output_schema"]["properties"].pop("status"),
        {B},
        "removed",
    ),
    (
        "output field type changed",
        lambda d: field(d, "total").update(type="string"),
        {B},
        "changed type",
    ),
    (
        "output field added",
        lambda d: tool(d)["output_schema"]["properties"].update(took={"type": "number"}),
        {C},
        "added",
    ),
    ("output field made optional", _field_optional, {B}, "may now be missing"),
    (
        "output enum grows",
        lambda d: field(d, "status").update(enum=["ok", "partial", "late"]),
        {B},
        "may now be",
    ),
    ("output schema removed", _drop(tool, "output_schema"), {B}, "structured"),
    (
        "output schema added",
        lambda d: tool(d, "ping").update(output_schema={"type": "object"}),
        {C},
        "output schema",
    ),
    ("resource removed", _remove_resource, {B}, "removed"),
    (
        "resource added",
        lambda d: d["resources"].append({"uri": "notes://x", "name": "x", "text": "x"}),
        {C},
        "added",
    ),
    ("resource renamed, same URI", _rename_resource, {C}, "renamed"),
    ("resource moved to another URI", _move_resource, {B, C}, "moved"),
    (
        "resource MIME type changed",
        lambda d: d["resources"][0].update(mime_type="text/markdown"),
        {B},
        "MIME",
    ),
    ("template removed", lambda d: d.pop("resource_templates"), {B}, "removed"),
    (
        "template variable narrowed",
        lambda d: d["resource_templates"][0]["parameters"]["id"].update(maxLength=4),
        {B},
        "maxLength",
    ),
    ("prompt removed", lambda d: d.pop("prompts"), {B}, "removed"),
    (
        "prompt renamed with renamed_from",
        lambda d: _rename(d, "prompts", "summarize", "sum", keep=True),
        {C},
        "renamed",
    ),
    (
        "prompt argument added, required",
        lambda d: _add_prompt_arg(d, required=True),
        {B},
        "required",
    ),
    (
        "prompt argument added, optional",
        lambda d: _add_prompt_arg(d, required=False),
        {C},
        "optional",
    ),
    (
        "prompt argument made required",
        lambda d: _prompt_arg(d, "tone").update(required=True),
        {B},
        "now required",
    ),
    (
        "prompt argument made optional",
        lambda d: _prompt_arg(d, "topic").update(required=False),
        {C},
        "now optional",
    ),
    ("prompt argument removed", _remove_prompt_arg, {B, C}, "refuses unknown arguments"),
]


@pytest.mark.parametrize(
    ("change", "verdicts", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_change_has_its_class(change: Change, verdicts: set[str], words: str) -> None:
    new = copy.deepcopy(BASE)
    change(new)
    diff = compare(manifest(BASE), manifest(new))
    lines = [str(c) for c in diff.changes]
    assert {line.split(":", 1)[0] for line in lines} == verdicts, lines
    assert any(words in line for line in lines), lines


def test_the_table_is_long_enough() -> None:
    assert len(CASES) >= 30


def test_no_change_no_line() -> None:
    diff = compare(manifest(BASE), manifest(copy.deepcopy(BASE)))
    assert diff.changes == ()
    assert diff.suggested_version == "1.2.3"


def test_a_former_name_dropped_from_renamed_from_breaks() -> None:
    old = copy.deepcopy(BASE)
    tool(old, "ping")["renamed_from"] = "echo"
    new = copy.deepcopy(old)
    _drop_alias(new)
    lines = [str(c) for c in compare(manifest(old), manifest(new)).changes]
    assert lines == [
        "breaking: tool `echo`: former name `echo` is no longer answered: "
        "clients still using it fail"
    ]


def test_breaking_lines_come_first() -> None:
    new = copy.deepcopy(BASE)
    _add_tool(new)
    new["tools"].pop(1)
    lines = [str(c) for c in compare(manifest(BASE), manifest(new)).changes]
    assert [line.split(":")[0] for line in lines] == ["breaking", "compatible"]


def test_a_definition_narrowed_where_it_stands() -> None:
    old = copy.deepcopy(BASE)
    tool(old, "ping")["input_schema"] = {
        "type": "object",
        "properties": {"note": {"$ref": "#/$defs/note"}},
        "$defs": {"note": {"type": "string", "maxLength": 50}},
    }
    new = copy.deepcopy(old)
    tool(new, "ping")["input_schema"]["$defs"]["note"]["maxLength"] = 5
    lines = [str(c) for c in compare(manifest(old), manifest(new)).changes]
    assert lines == [
        "breaking: tool `ping`: definition `note`: maxLength 50 → 5 "
        "(narrower: values clients send may be refused)"
    ]
