"""The human view of a manifest (TOOLS.md): one row per argument and result field."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mcpgen.manifest.model import Tool

_HINTS = (
    ("readOnlyHint", "read-only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "open world"),
)
_BOUNDS = (
    ("minimum", ">= {}"),
    ("maximum", "<= {}"),
    ("exclusiveMinimum", "> {}"),
    ("exclusiveMaximum", "< {}"),
    ("multipleOf", "multiple of {}"),
    ("minLength", "length >= {}"),
    ("maxLength", "length <= {}"),
    ("minItems", "items >= {}"),
    ("maxItems", "items <= {}"),
    ("minProperties", "keys >= {}"),
    ("maxProperties", "keys <= {}"),
    ("pattern", "pattern `{}`"),
    ("format", "format {}"),
)


@dataclass(frozen=True)
class FieldRow:
    """One argument or result field."""

    name: str
    type: str
    required: bool
    default: str
    constraints: str
    description: str


@dataclass(frozen=True)
class ToolDoc:
    """Everything TOOLS.md shows about one tool."""

    tool: Tool
    anchor: str
    title: str
    hints: list[str]
    handler_path: str
    arguments: list[FieldRow]
    results: list[FieldRow] | None
    endpoint: str = ""  # `GET /repos/{owner}` for a tool bound to an HTTP API


def _literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def type_label(schema: Any) -> str:
    """A short type for a schema: `string`, `array of integer`, `Comment`, `string | null`."""
    if schema is True or schema == {}:
        return "any"
    if not isinstance(schema, dict):
        return "never"
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1] or "(recursive)"
    if "const" in schema:
        return f"const {_literal(schema['const'])}"
    return _composite_label(schema) or _simple_label(schema)


def _composite_label(schema: dict[str, Any]) -> str:
    for key, joiner in (("anyOf", " | "), ("oneOf", " | "), ("allOf", " & ")):
        if isinstance(schema.get(key), list):
            return joiner.join(type_label(branch) for branch in schema[key])
    return ""


def _simple_label(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind else []
    labels = []
    for each in kinds:
        if each == "array" and isinstance(schema.get("items"), dict):
            labels.append(f"array of {type_label(schema['items'])}")
        else:
            labels.append(str(each))
    if not labels:
        return "enum" if "enum" in schema else "any"
    return " | ".join(labels)


def constraints_label(schema: Any) -> str:
    """A schema's bounds, allowed values and flags in a few words (`>= 1; <= 10`)."""
    if not isinstance(schema, dict):
        return ""
    parts = [template.format(schema[key]) for key, template in _BOUNDS if key in schema]
    if isinstance(schema.get("enum"), list):
        parts.append("one of " + ", ".join(_literal(v) for v in schema["enum"]))
    if schema.get("uniqueItems"):
        parts.append("unique items")
    if schema.get("deprecated"):
        parts.append("deprecated")
    return "; ".join(parts)


def field_rows(schema: Any) -> list[FieldRow]:
    """Rows for the top-level properties of an object schema, in manifest order."""
    if not isinstance(schema, dict):
        return []
    required = set(schema.get("required") or ())
    rows = []
    for name, sub in (schema.get("properties") or {}).items():
        sub_dict = sub if isinstance(sub, dict) else {}
        rows.append(
            FieldRow(
                name=name,
                type=type_label(sub),
                required=name in required,
                default=_literal(sub_dict["default"]) if "default" in sub_dict else "",
                constraints=constraints_label(sub),
                description=str(sub_dict.get("description", "")),
            )
        )
    return rows


def anchor(name: str) -> str:
    """GitHub's heading anchor for a tool name (lowercase, punctuation but `-`/`_` dropped)."""
    return "".join(c for c in name.lower() if c.isalnum() or c in "-_ ").replace(" ", "-")


def tool_doc(tool: Tool, handler_path: str) -> ToolDoc:
    """Everything TOOLS.md shows for one tool: title, hints, handler, argument and result rows."""
    annotations = tool.annotations or {}
    return ToolDoc(
        tool=tool,
        anchor=anchor(tool.name),
        title=tool.title or str(annotations.get("title") or ""),
        hints=[label for key, label in _HINTS if annotations.get(key) is True],
        handler_path=handler_path,
        arguments=field_rows(tool.input_schema),
        results=None if tool.output_schema is None else field_rows(tool.output_schema),
        endpoint=endpoint(tool),
    )


def endpoint(tool: Tool) -> str:
    """The operation a bound tool calls (`GET /repos/{owner}`); empty for a handler tool."""
    binding = tool.binding
    if not binding:
        return ""
    return f"{str(binding.get('method', '')).upper()} {binding.get('path', '')}"


def auth_text(auth: Any) -> str:
    """How a source authenticates, naming its variables, for TOOLS.md."""
    if not auth:
        return "none"
    if auth.get("passthrough"):
        return "the MCP caller's bearer token, forwarded (HTTP transport only)"
    if "basic_env" in auth:
        user, password = auth["basic_env"]
        return f"basic auth from `{user}` and `{password}`"
    for key, words in _AUTH_WORDS:
        if key in auth:
            return words.format(name=auth[key], env=auth.get("env"))
    return "see mcpgen.yaml"


_AUTH_WORDS = (
    ("bearer_env", "bearer token from `{name}`"),
    ("header", "header `{name}` from `{env}`"),
    ("query", "query parameter `{name}` from `{env}`"),
)


def inline_text(value: object) -> str:
    """Text shown as is inside Markdown emphasis or a list item: markup characters escaped."""
    text = " ".join(str(value).split())
    return "".join(f"\\{c}" if c in "\\`*_[]<>|" else c for c in text)


def table_cell(value: object) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped."""
    text = " ".join(str(value).split())
    return text.replace("|", "\\|")
