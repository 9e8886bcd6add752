"""What makes tools hard for a model to use, though the manifest is valid: warnings that
`mcpgen validate` prints (located) and `--strict` turns into errors.

- an argument without a description (the model guesses what to pass);
- an enum without a description (the model sees the values, not what each means);
- an argument name model APIs refuse (Anthropic: `^[a-zA-Z0-9_.-]{1,64}$`);
- a tool description longer than OpenAI's 1,024 characters (cut there);
- a tools/list over a budget of tokens (hosts send it with every request).

Tools without a description and tool names over host limits are already warnings of
validation itself (`validate.py`, `host_limits.py`), printed by `generate` too; these are for
`validate` only, so `generate`'s output stays as it is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from mcpgen.manifest.list_size import list_size_findings
from mcpgen.manifest.messages import Finding
from mcpgen.manifest.sourcemap import JsonPath

# Anthropic's pattern for the keys of an input schema's `properties`.
PROPERTY_NAME = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")
DESCRIPTION_LIMIT = 1024  # characters of a function description OpenAI's API keeps
TOKEN_BUDGET = 10_000  # of the whole tools/list, at about 4 bytes of JSON per token
BYTES_PER_TOKEN = 4
_MAX_DEPTH = 8  # nested objects followed for their arguments' descriptions
_INPUT_KEYS = ("input_schema", "inputSchema")
_WIRE = {"input_schema": "inputSchema", "output_schema": "outputSchema"}
_PUBLISHED = ("name", "title", "description", "annotations", *_WIRE, *_WIRE.values())


def lint_findings(data: Any) -> list[Finding]:
    """Every lint warning of a valid manifest's plain data."""
    tools = data.get("tools") if isinstance(data, dict) else None
    if not isinstance(tools, list):
        return []
    findings: list[Finding] = []
    for index, tool in enumerate(tools):
        if isinstance(tool, dict):
            findings += _tool_lints(tool, ("tools", index))
    findings += _budget(tools)
    return findings + list_size_findings(tools)


def _tool_lints(tool: dict[str, Any], path: JsonPath) -> list[Finding]:
    findings: list[Finding] = []
    description = tool.get("description")
    if isinstance(description, str) and len(description) > DESCRIPTION_LIMIT:
        message = (
            f"the description is {len(description)} characters; OpenAI's API keeps "
            f"{DESCRIPTION_LIMIT}: put what matters first, or say less"
        )
        findings.append(Finding((*path, "description"), message, level="warning"))
    key = next((k for k in _INPUT_KEYS if isinstance(tool.get(k), dict)), None)
    if key is not None:
        findings += _arguments(tool[key], (*path, key), "", 0)
    return findings


def _arguments(schema: dict[str, Any], path: JsonPath, prefix: str, depth: int) -> list[Finding]:
    """The lints of each property of an object schema, and of the objects inside it."""
    properties = schema.get("properties")
    if not isinstance(properties, dict) or depth > _MAX_DEPTH:
        return []
    findings: list[Finding] = []
    for name, value in properties.items():
        where = (*path, "properties", name)
        if not isinstance(value, dict):
            continue
        findings += list(_one_argument(str(name), value, where, prefix))
        for inner, inner_path in _nested_objects(value, where):
            findings += _arguments(inner, inner_path, f"{prefix}{name}.", depth + 1)
    return findings


def _one_argument(
    name: str, schema: dict[str, Any], where: JsonPath, prefix: str
) -> Iterator[Finding]:
    shown = f"`{prefix}{name}`"
    if not PROPERTY_NAME.match(name):
        message = (
            f"argument name {shown} does not match {PROPERTY_NAME.pattern}: the Anthropic API "
            "refuses the tool, so hosts on Claude drop it"
        )
        yield Finding(where, message, level="warning", at_key=True)
    if schema.get("description") or "$ref" in schema:
        return  # a `$ref` is described where it points
    if isinstance(schema.get("enum"), list) and len(schema["enum"]) > 1:
        message = (
            f"the values of {shown} have no meaning given: describe what each one does "
            "(a description on the argument, or oneOf with a const and a description each)"
        )
    else:
        message = f"argument {shown} has no description: the model guesses what to pass"
    yield Finding(where, message, level="warning", at_key=True)


def _nested_objects(
    schema: dict[str, Any], where: JsonPath
) -> Iterator[tuple[dict[str, Any], JsonPath]]:
    """An object argument's schema, or its array items' (whose fields are arguments too)."""
    if isinstance(schema.get("properties"), dict):
        yield schema, where
    items = schema.get("items")
    if isinstance(items, dict) and isinstance(items.get("properties"), dict):
        yield items, (*where, "items")


def estimated_tokens(tools: list[Any]) -> int:
    """About how many tokens the tools/list answer takes in a model's context."""
    published = [
        {_WIRE.get(k, k): v for k, v in tool.items() if k in _PUBLISHED}
        for tool in tools
        if isinstance(tool, dict)
    ]
    text = json.dumps(published, ensure_ascii=False, separators=(",", ":"), default=str)
    return len(text.encode("utf-8")) // BYTES_PER_TOKEN


def _budget(tools: list[Any]) -> list[Finding]:
    tokens = estimated_tokens(tools)
    if tokens <= TOKEN_BUDGET:
        return []
    message = (
        f"tools/list is about {tokens:,} tokens, over a budget of {TOKEN_BUDGET:,}: hosts send "
        "it with every request, so it takes that much of the model's context each time; "
        "shorten descriptions and schemas, or split the server"
    )
    return [Finding(("tools",), message, level="warning", at_key=True)]
