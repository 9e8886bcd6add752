"""`mcpgen add tool`: append a tool skeleton to the manifest text, keeping everything else.

The user's file is edited as text, not re-emitted: the new item is inserted after the last
line of the `tools` block, indented like the existing items, so comments, key order, quoting
and blank lines elsewhere stay byte for byte. ruamel.yaml's round-trip loader tells where the
block is; a full round-trip dump (which can re-indent the whole file) is only the fallback
for a `tools` key that is missing, empty or written in flow style (`tools: [...]`).
"""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from mcpgen.errors import McpgenError


def skeleton(name: str, description: str | None) -> dict[str, Any]:
    """The tool a user starts from: no arguments yet, and a description to replace."""
    return {
        "name": name,
        "description": description or f"TODO: say what {name} does and when to use it",
        "input_schema": {"type": "object", "properties": {}},
    }


def _round_trip() -> YAML:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap the user's long lines
    return yaml


def _dump(data: Any, yaml: YAML) -> str:
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue()


def _item_text(tool: dict[str, Any], dash_col: int, item_col: int, mapping_indent: int) -> str:
    yaml = _round_trip()
    yaml.indent(mapping=mapping_indent, sequence=mapping_indent, offset=0)
    body = _dump(tool, yaml).splitlines()
    first = " " * dash_col + "-" + " " * max(1, item_col - dash_col - 1) + body[0]
    return "\n".join([first, *(" " * item_col + line for line in body[1:])]) + "\n"


def _block_end(lines: list[str], start: int, stop: int) -> int:
    """The index after the tools block's last content line (trailing comments and blank
    lines before the next top-level key belong to that key)."""
    end = stop
    while end > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end


def _mapping_indent(seq: CommentedSeq) -> int:
    """How far the user indents nested mappings inside a tool (2 unless the file says else)."""
    first = seq[0]
    if isinstance(first, CommentedMap):
        for key, value in first.items():
            if isinstance(value, CommentedMap) and len(value):
                child_line, child_col = value.lc.key(next(iter(value)))
                key_line, key_col = first.lc.key(key)
                if child_line > key_line:  # block style: the indent is visible
                    return int(child_col - key_col)
    return 2


def append_tool(text: str, name: str, description: str | None = None) -> str:
    """The manifest text with a skeleton tool appended to `tools`."""
    try:
        data = _round_trip().load(text)
    except YAMLError as exc:
        raise McpgenError(f"cannot edit the manifest: it is not valid YAML ({exc})") from None
    if not isinstance(data, CommentedMap):
        raise McpgenError("cannot edit the manifest: its top level is not a mapping")
    tools = data.get("tools")
    if isinstance(tools, list) and any(
        isinstance(t, dict) and t.get("name") == name for t in tools
    ):
        raise McpgenError(f"the manifest already has a tool named {name!r}")
    tool = skeleton(name, description)
    if isinstance(tools, CommentedSeq) and len(tools) and not tools.fa.flow_style():
        lines = text.splitlines(keepends=True)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        keys = list(data.keys())
        after = keys.index("tools") + 1
        stop = data.lc.key(keys[after])[0] if after < len(keys) else len(lines)
        end = _block_end(lines, data.lc.key("tools")[0] + 1, stop)
        dash_col = len(lines[tools.lc.line]) - len(lines[tools.lc.line].lstrip())
        item_col = tools.lc.item(0)[1]
        item = _item_text(tool, dash_col, item_col, _mapping_indent(tools))
        return "".join([*lines[:end], item, *lines[end:]])
    # No block-style list to extend: let ruamel write the list (and only then re-emit).
    if isinstance(tools, list):
        tools.append(tool)
        if isinstance(tools, CommentedSeq):
            tools.fa.set_block_style()
    else:
        data["tools"] = [tool]
    return _dump(data, _round_trip())
