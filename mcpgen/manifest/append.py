"""`mcpgen add tool`: append a tool skeleton to the manifest text, keeping everything else.

The user's file is edited as text, never re-emitted: every byte outside the new tool stays as
it was (comments, key order, quoting, blank lines, line endings). ruamel.yaml's round-trip
loader and its parse events only tell *where* to insert:

- a block list (`tools:` then `- name: ...`): the new item goes after the block's last line
  (an indented comment still belongs to the block, a column-0 comment to the next key),
  indented like the existing items;
- a non-empty flow list (`tools: [{...}]`): `, {new tool}` goes after the last item;
- an empty list (`tools: []`), a null (`tools:`) or no `tools` key: the `[]` / null is
  replaced by a block list under the key (the key line's comment is kept), or `tools:` is
  appended at the end of the file.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import (
    CollectionEndEvent,
    CollectionStartEvent,
    Event,
    NodeEvent,
    ScalarEvent,
)

from mcpgen.errors import McpgenError

# A new block list under `tools:` when the file has none to copy the indentation from.
_DEFAULT_DASH_OFFSET = 2
_DEFAULT_MAPPING_INDENT = 2


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
    yaml.width = 4096  # never wrap a long description over several lines
    return yaml


def _dump(data: Any, yaml: YAML) -> str:
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue()


def _newline_of(text: str) -> str:
    """The file's line ending, judged by its first line (CRLF files stay CRLF)."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _block_item(
    tool: dict[str, Any], dash_col: int, item_col: int, mapping_indent: int
) -> list[str]:
    """The tool as block-style lines (without line endings), `- ` at `dash_col`."""
    yaml = _round_trip()
    yaml.indent(mapping=mapping_indent, sequence=mapping_indent, offset=0)
    body = _dump(tool, yaml).splitlines()
    first = " " * dash_col + "-" + " " * max(1, item_col - dash_col - 1) + body[0]
    return [first, *(" " * item_col + line for line in body[1:])]


def _flow_item(tool: dict[str, Any]) -> str:
    yaml = _round_trip()
    yaml.default_flow_style = True
    return _dump(tool, yaml).strip()


def _line_start(text: str, line: int) -> int:
    """The index of the first character of 0-based `line` (len(text) past the last line)."""
    index = 0
    for _ in range(line):
        found = text.find("\n", index)
        if found < 0:
            return len(text)
        index = found + 1
    return index


def _insert_lines(text: str, at_line: int, lines: Iterable[str]) -> str:
    """`text` with `lines` inserted before 0-based `at_line`, in the file's line ending.

    The line before the insertion gets a line ending if it had none (the file's last line);
    nothing else outside the inserted lines changes.
    """
    newline = _newline_of(text)
    index = _line_start(text, at_line)
    head, tail = text[:index], text[index:]
    if head and not head.endswith("\n"):
        head += newline
    return head + "".join(line + newline for line in lines) + tail


def _is_trailing(line: str) -> bool:
    """A blank line or a column-0 comment: it belongs to whatever follows, not to the list."""
    return not line.strip() or line.startswith("#")


def _block_end(lines: list[str], start: int, stop: int) -> int:
    """The index after the tools block's last line: its last item, or an indented comment
    (often a commented-out tool) that follows it."""
    end = stop
    while end > start and _is_trailing(lines[end - 1]):
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
    return _DEFAULT_MAPPING_INDENT


def _lines(text: str) -> list[str]:
    """Lines with their endings, split on LF only: the line numbers ruamel.yaml reports."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _append_to_block(
    text: str, data: CommentedMap, tools: CommentedSeq, tool: dict[str, Any], key: str = "tools"
) -> str:
    lines = _lines(text)
    keys = list(data.keys())
    after = keys.index(key) + 1
    stop = data.lc.key(keys[after])[0] if after < len(keys) else len(lines)
    end = _block_end(lines, data.lc.key(key)[0] + 1, stop)
    dash_line = lines[tools.lc.line]
    dash_col = len(dash_line) - len(dash_line.lstrip())
    item_col = tools.lc.item(0)[1]
    return _insert_lines(text, end, _block_item(tool, dash_col, item_col, _mapping_indent(tools)))


@dataclass(frozen=True)
class _Node:
    """Where the `tools` value sits in the text: character indexes into the original."""

    start: int  # the value's first character (`[` of a flow list)
    end: int  # just after its last character (`]` of a flow list)
    last_item_end: int | None  # just after the last item of a non-empty list


def _value_events(text: str, key: str) -> list[Event]:
    """The parse events of the top-level mapping's `key` value, from its start to its end."""
    depth, is_key, found = 0, True, False
    collected: list[Event] = []
    for event in YAML().parse(text):
        if depth == 1 and isinstance(event, NodeEvent):  # a key or a value
            if found:
                collected.append(event)
            elif is_key and isinstance(event, ScalarEvent) and event.value == key:
                found = True
            is_key = not is_key
        elif collected:
            collected.append(event)
        if isinstance(event, CollectionStartEvent):
            depth += 1
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
        if collected and depth == 1:
            return collected
    raise McpgenError(f"cannot edit the manifest: its `{key}` value was not found")


def _tools_node(text: str, key: str = "tools") -> _Node:
    events = _value_events(text, key)
    first, last = events[0], events[-1]
    has_items = len(events) > 2 and isinstance(first, CollectionStartEvent)
    return _Node(
        start=first.start_mark.index,
        end=last.end_mark.index,
        last_item_end=events[-2].end_mark.index if has_items else None,
    )


def _append_to_flow(text: str, tool: dict[str, Any], key: str = "tools") -> str:
    node = _tools_node(text, key)
    assert node.last_item_end is not None
    at = node.last_item_end
    return text[:at] + ", " + _flow_item(tool) + text[at:]


def _replace_with_block(
    text: str, data: CommentedMap, tool: dict[str, Any], key: str = "tools"
) -> str:
    """`tools: []` or `tools:` (null) becomes a block list with the new tool."""
    key_line, key_col = data.lc.key(key)
    node = _tools_node(text, key)
    spans_lines = text.count("\n", 0, node.end) > key_line
    if isinstance(data[key], CommentedSeq) and spans_lines:
        # `[` and `]` on different lines, maybe with comments between: fill the flow list.
        return text[: node.start + 1] + _flow_item(tool) + text[node.start + 1 :]
    if node.end > node.start:
        # Drop `[]` / `~` / `null` and the spaces before it; a comment after it stays.
        start = len(text[: node.start].rstrip(" "))
        text = text[:start] + text[node.end :]
    return _insert_lines(text, key_line + 1, _first_block_item(tool, key_col))


def _first_block_item(tool: dict[str, Any], key_col: int) -> list[str]:
    """The first item of a new block list under a key at `key_col` (the README's layout)."""
    dash_col = key_col + _DEFAULT_DASH_OFFSET
    return _block_item(tool, dash_col, dash_col + 2, _DEFAULT_MAPPING_INDENT)


def _append_tools_key(text: str, tool: dict[str, Any], key: str = "tools") -> str:
    at_end = text.count("\n") + 1
    return _insert_lines(text, at_end, [f"{key}:", *_first_block_item(tool, 0)])


def _load(text: str) -> CommentedMap:
    try:
        data = _round_trip().load(text)
    except YAMLError as exc:
        raise McpgenError(f"cannot edit the manifest: it is not valid YAML ({exc})") from None
    if not isinstance(data, CommentedMap):
        raise McpgenError("cannot edit the manifest: its top level is not a mapping")
    if data.fa.flow_style():
        raise McpgenError(
            "cannot edit the manifest: its top level is written in flow style ({...}); "
            "add the tool by hand"
        )
    return data


def _lone_cr(text: str) -> int:
    """The index of the first CR that does not start a CRLF (an old Mac line end), or -1."""
    found = _LONE_CR.search(text)
    return found.start() if found else -1


_LONE_CR = re.compile(r"\r(?!\n)")


def _on_lf(text: str, edit: Callable[[str], str]) -> str:
    """`edit(text)` run on LF line ends: a CR-only file (which YAML reads like any other) is
    edited as LF and given its CRs back; a file that mixes lone CRs with LFs is refused, since
    its lines are not the ones a text editor shows."""
    lone = _lone_cr(text)
    if lone < 0:
        return edit(text)
    if "\n" in text:
        line = len(re.findall(r"\r\n|\r|\n", text[:lone])) + 1
        raise McpgenError(
            f"cannot edit the manifest: line {line} ends with a lone CR while other lines "
            "end with LF; save it with one kind of line ending, then run the command again"
        )
    return edit(text.replace("\r", "\n")).replace("\n", "\r")


def append_tool(text: str, name: str, description: str | None = None) -> str:
    """The manifest text with a skeleton tool appended to `tools`; no other byte changes."""
    return _on_lf(text, lambda lf: _append_tool(lf, name, description))


def _append_tool(text: str, name: str, description: str | None) -> str:
    data = _load(text)
    tools = data.get("tools")
    if tools is not None and not isinstance(tools, CommentedSeq):
        raise McpgenError("cannot add a tool: the manifest's `tools` is not a list")
    if tools and any(isinstance(t, dict) and t.get("name") == name for t in tools):
        raise McpgenError(f"the manifest already has a tool named {name!r}")
    tool = skeleton(name, description)
    if "tools" not in data:
        return _append_tools_key(text, tool)
    if not tools:
        return _replace_with_block(text, data, tool)
    if tools.fa.flow_style():
        return _append_to_flow(text, tool)
    return _append_to_block(text, data, tools, tool)


def append_entry(text: str, key: str, entry: dict[str, Any], what: str) -> str:
    """The manifest text with `entry` appended to the top-level list `key` (`resources`,
    `prompts`), kept as `append_tool` keeps `tools`; no other byte changes."""
    return _on_lf(text, lambda lf: _append_entry(lf, key, entry, what))


def _append_entry(text: str, key: str, entry: dict[str, Any], what: str) -> str:
    data = _load(text)
    items = data.get(key)
    if items is not None and not isinstance(items, CommentedSeq):
        raise McpgenError(f"cannot add a {what}: the manifest's `{key}` is not a list")
    if items and any(isinstance(i, dict) and i.get("name") == entry["name"] for i in items):
        raise McpgenError(f"the manifest already has a {what} named {entry['name']!r}")
    if key not in data:
        return _append_tools_key(text, entry, key)
    if not items:
        return _replace_with_block(text, data, entry, key)
    if items.fa.flow_style():
        return _append_to_flow(text, entry, key)
    return _append_to_block(text, data, items, entry, key)
