"""A small JSON/JSONC reader and surgical editor that keeps every byte it does not change.

Host config files are hand-edited: comments (JSONC), key order, indentation and other
servers must survive an install. So instead of load → modify → dump, the parser records
where each value sits in the text, and an edit replaces or inserts only the text of one
member or array item. Callers re-parse the result and compare it with the intended data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\.)*"', re.DOTALL)
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class JsoncError(ValueError):
    """The text is not valid JSON (or JSONC); `line` and `col` are 1-based."""

    def __init__(self, message: str, text: str, pos: int) -> None:
        self.line = text.count("\n", 0, pos) + 1
        self.col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        super().__init__(f"line {self.line}, column {self.col}: {message}")


@dataclass
class Piece:
    """A member (`"key": value`) or an array item: where it starts and where its value sits."""

    start: int
    value: Node
    key: str | None = None
    comma: int | None = None  # offset of the comma after it, if any


@dataclass
class Node:
    """A parsed value and its span in the text; objects and arrays keep their pieces."""

    kind: str  # "object", "array" or "scalar"
    start: int
    end: int  # exclusive
    pieces: list[Piece] = field(default_factory=list)
    scalar: Any = None

    def member(self, key: str) -> Piece | None:
        """The member named `key`, the last one if the key is repeated (as `JSON.parse` does)."""
        # The last duplicate wins, as in JSON.parse.
        found = [p for p in self.pieces if p.key == key]
        return found[-1] if found else None

    def data(self) -> Any:
        """The value as plain Python data."""
        if self.kind == "object":
            return {p.key: p.value.data() for p in self.pieces}
        if self.kind == "array":
            return [p.value.data() for p in self.pieces]
        return self.scalar


class _Parser:
    def __init__(self, text: str, jsonc: bool) -> None:
        self.text = text
        self.jsonc = jsonc
        self.pos = 1 if text.startswith("\ufeff") else 0

    def fail(self, message: str) -> JsoncError:
        return JsoncError(message, self.text, self.pos)

    def skip(self) -> None:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in " \t\r\n":
                self.pos += 1
            elif self.jsonc and text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            elif self.jsonc and text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("unterminated /* comment")
                self.pos = end + 2
            else:
                return

    def document(self) -> Node:
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("the file is empty")
        node = self.value()
        self.skip()
        if self.pos < len(self.text):
            raise self.fail("unexpected text after the end of the document")
        return node

    def value(self) -> Node:
        text, start = self.text, self.pos
        char = text[start] if start < len(text) else ""
        if char == "{":
            return self.container("}", keyed=True)
        if char == "[":
            return self.container("]", keyed=False)
        if char == '"':
            return Node(
                "scalar", start, self.string_end(), scalar=json.loads(text[start : self.pos])
            )
        number = _NUMBER.match(text, start)
        if number:
            self.pos = number.end()
            return Node("scalar", start, self.pos, scalar=json.loads(number.group()))
        for word, literal in _LITERALS.items():
            if text.startswith(word, start):
                self.pos = start + len(word)
                return Node("scalar", start, self.pos, scalar=literal)
        raise self.fail("expected a value")

    def string_end(self) -> int:
        match = _STRING.match(self.text, self.pos)
        if not match:
            raise self.fail("invalid string")
        self.pos = match.end()
        return self.pos

    def container(self, close: str, *, keyed: bool) -> Node:
        node = Node("object" if keyed else "array", self.pos, -1)
        self.pos += 1
        while True:
            self.skip()
            if self.text.startswith(close, self.pos):
                if node.pieces and node.pieces[-1].comma is not None and not self.jsonc:
                    raise self.fail("trailing comma")
                break
            if node.pieces and node.pieces[-1].comma is None:
                raise self.fail(f"expected ',' or '{close}'")
            node.pieces.append(self.member() if keyed else self.item())
            self.skip()
            if self.text.startswith(",", self.pos):
                node.pieces[-1].comma = self.pos
                self.pos += 1
        self.pos += 1
        node.end = self.pos
        return node

    def member(self) -> Piece:
        start = self.pos
        if not self.text.startswith('"', start):
            raise self.fail("expected a quoted key")
        key = json.loads(self.text[start : self.string_end()])
        self.skip()
        if not self.text.startswith(":", self.pos):
            raise self.fail("expected ':'")
        self.pos += 1
        self.skip()
        return Piece(start, self.value(), key=key)

    def item(self) -> Piece:
        start = self.pos
        return Piece(start, self.value())


def parse(text: str, *, jsonc: bool) -> Node:
    """Parse JSON (or JSONC: comments and trailing commas) keeping positions; JsoncError if bad."""
    return _Parser(text, jsonc).document()


def loads(text: str, *, jsonc: bool) -> Any:
    """The document as plain Python data, like `json.loads` but allowing JSONC when asked."""
    return parse(text, jsonc=jsonc).data()


# -- editing -------------------------------------------------------------------------------


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _indent_at(text: str, pos: int) -> str:
    start = _line_start(text, pos)
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _starts_line(text: str, pos: int) -> bool:
    return text[_line_start(text, pos) : pos].strip(" \t") == ""


def indent_unit(text: str, root: Node) -> str:
    """The file's indentation step, from its first member on a line of its own; else 2 spaces."""
    for piece in root.pieces:
        if _starts_line(text, piece.start):
            unit = _indent_at(text, piece.start)
            if unit:
                return unit
    return "  "


def _dump(value: Any, unit: str, base: str) -> str:
    indent: int | str = len(unit) if unit.strip(" ") == "" else unit
    return json.dumps(value, indent=indent, ensure_ascii=False).replace("\n", "\n" + base)


def _after_line_comments(text: str, pos: int) -> int:
    """Past comments that sit on the same line after `pos`, so an insertion keeps them in place."""
    end = pos
    scan = pos
    while True:
        while scan < len(text) and text[scan] in " \t":
            scan += 1
        if text.startswith("//", scan):
            newline = text.find("\n", scan)
            return len(text) if newline < 0 else newline
        if text.startswith("/*", scan):
            close = text.find("*/", scan)
            if close < 0 or "\n" in text[scan:close]:
                return end
            scan = end = close + 2
            continue
        return end


def _piece_indent(text: str, node: Node, unit: str) -> str:
    for piece in reversed(node.pieces):
        if _starts_line(text, piece.start):
            return _indent_at(text, piece.start)
    return _indent_at(text, node.start) + unit


def _insert(text: str, node: Node, render: Callable[[str], str], unit: str) -> str:
    """Append a piece to an object or array. `render(indent)` gives the piece's text."""
    if not node.pieces:
        outer = _indent_at(text, node.start)
        inner = outer + unit
        interior_start, interior_end = node.start + 1, node.end - 1
        interior = text[interior_start:interior_end]
        if interior.strip() == "":
            return (
                text[:interior_start]
                + "\n"
                + inner
                + render(inner)
                + "\n"
                + outer
                + text[interior_end:]
            )
        # Only comments inside: keep them, add the piece after the last one.
        after = interior_start + len(interior.rstrip())
        return text[:after] + "\n" + inner + render(inner) + "\n" + outer + text[interior_end:]
    indent = _piece_indent(text, node, unit)
    last = node.pieces[-1]
    if last.comma is not None:  # JSONC trailing comma: keep that style
        at = _after_line_comments(text, last.comma + 1)
        return text[:at] + "\n" + indent + render(indent) + "," + text[at:]
    at = _after_line_comments(text, last.value.end)
    return (
        text[: last.value.end]
        + ","
        + text[last.value.end : at]
        + "\n"
        + indent
        + render(indent)
        + text[at:]
    )


def _span_to_remove(text: str, node: Node, index: int) -> tuple[int, int]:
    piece = node.pieces[index]
    if piece.comma is not None:
        return piece.start, piece.comma + 1
    if index == 0:
        return piece.start, piece.value.end
    # The last piece: its separating comma is the previous piece's.
    comma = node.pieces[index - 1].comma
    assert comma is not None
    return comma, piece.value.end


def _remove(text: str, node: Node, index: int) -> str:
    """Delete one piece with its comma; a line holding only that piece goes with it."""
    start, end = _span_to_remove(text, node, index)
    if text[start] == ",":
        # Keep a comment that sat after that comma on the previous piece's line.
        kept = _after_line_comments(text, start + 1)
        if kept != start + 1:
            return text[:start] + text[start + 1 : kept] + text[end:]
    line_start = _line_start(text, start)
    newline = text.find("\n", end)
    line_end = len(text) if newline < 0 else newline
    if text[line_start:start].strip(" \t") == "" and text[end:line_end].strip(" \t") == "":
        start, end = line_start, min(line_end + 1, len(text))
    result = text[:start] + text[end:]
    if len(node.pieces) == 1:
        # The container is now empty: `{}` rather than a brace on each line.
        close = node.end - (end - start) - 1
        if result[node.start + 1 : close].strip() == "":
            result = result[: node.start + 1] + result[close:]
    return result


def _object_at(text: str, path: tuple[str, ...], jsonc: bool) -> tuple[Node, Node]:
    root = parse(text, jsonc=jsonc)
    if root.kind != "object":
        raise JsoncError("the document is not a JSON object", text, root.start)
    node = root
    for key in path:
        piece = node.member(key)
        if piece is None:
            raise KeyError(key)
        if piece.value.kind != "object":
            raise JsoncError(f"`{key}` is not an object", text, piece.value.start)
        node = piece.value
    return root, node


def set_member(text: str, path: tuple[str, ...], value: Any, *, jsonc: bool) -> str:
    """Set `path` (keys from the root) to `value`, creating missing parent objects."""
    root = parse(text, jsonc=jsonc)
    if root.kind != "object":
        raise JsoncError("the document is not a JSON object", text, root.start)
    unit = indent_unit(text, root)
    node = root
    for depth, key in enumerate(path):
        piece = node.member(key)
        if piece is None:
            nested: Any = value
            for outer_key in reversed(path[depth + 1 :]):
                nested = {outer_key: nested}
            return _insert(text, node, _member_renderer(key, nested, unit), unit)
        if depth == len(path) - 1:
            base = _indent_at(text, piece.start)
            return text[: piece.value.start] + _dump(value, unit, base) + text[piece.value.end :]
        if piece.value.kind != "object":
            raise JsoncError(f"`{key}` is not an object", text, piece.value.start)
        node = piece.value
    raise ValueError("empty path")


def remove_member(text: str, path: tuple[str, ...], *, jsonc: bool) -> str:
    """Remove the member at `path`; the text is returned unchanged when it is absent."""
    try:
        _, parent = _object_at(text, path[:-1], jsonc)
    except KeyError:
        return text
    indexes = [i for i, p in enumerate(parent.pieces) if p.key == path[-1]]
    for index in reversed(indexes):
        text = _remove(text, parent, index)
        _, parent = _object_at(text, path[:-1], jsonc)
    return text


def _member_renderer(key: str, value: Any, unit: str) -> Callable[[str], str]:
    name = json.dumps(key, ensure_ascii=False)
    return lambda indent: f"{name}: {_dump(value, unit, indent)}"


def _item_renderer(item: Any, unit: str) -> Callable[[str], str]:
    return lambda indent: _dump(item, unit, indent)


def upsert_items(
    text: str, path: tuple[str, ...], items: list[Any], key: str, *, jsonc: bool
) -> str:
    """In the array at `path`, replace items whose `key` matches, append the others."""
    for item in items:
        root = parse(text, jsonc=jsonc)
        unit = indent_unit(text, root)
        piece = root.member(path[0]) if len(path) == 1 else None
        if piece is None:
            text = set_member(text, path, [item], jsonc=jsonc)
            continue
        array = piece.value
        if array.kind != "array":
            raise JsoncError(f"`{path[0]}` is not an array", text, array.start)
        match = next(
            (
                p
                for p in array.pieces
                if isinstance(p.value.data(), dict) and p.value.data().get(key) == item[key]
            ),
            None,
        )
        if match is not None:
            base = _indent_at(text, match.start)
            text = text[: match.value.start] + _dump(item, unit, base) + text[match.value.end :]
        else:
            text = _insert(text, array, _item_renderer(item, unit), unit)
    return text


def remove_items(
    text: str, path: tuple[str, ...], key: str, values: set[Any], *, jsonc: bool
) -> str:
    """Remove the items of the array at `path` whose `key` is one of `values`."""
    while True:
        root = parse(text, jsonc=jsonc)
        piece = root.member(path[0]) if len(path) == 1 else None
        if piece is None or piece.value.kind != "array":
            return text
        array = piece.value
        index = next(
            (
                i
                for i, p in enumerate(array.pieces)
                if isinstance(p.value.data(), dict) and p.value.data().get(key) in values
            ),
            None,
        )
        if index is None:
            return text
        text = _remove(text, array, index)
