"""Read an OpenAPI document (JSON or YAML, a byte-order mark tolerated) and locate paths in it.

JSON is parsed by the standard library (a 13 MB spec in a quarter of a second); positions
are found only when a diagnostic needs one, by a scan that skips every value not on the way
with the C decoder. YAML goes through ruamel's libyaml parser (YAML 1.2), and its node tree
is kept for positions.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
from dataclasses import dataclass, field
from typing import Any

from mcpgen.errors import Diagnostic, Level

JsonPath = tuple[str | int, ...]
_DECODER = json.JSONDecoder()
_WHITESPACE = " \t\n\r"


class SpecUnreadable(Exception):
    """The file is not a JSON or YAML document; `diagnostic` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


@dataclass
class SpecDocument:
    """A parsed spec: its data, its text, and how to find where a path is written."""

    file: str  # the name diagnostics show
    data: Any
    text: str
    sha256: str
    is_json: bool
    _yaml_root: Any = field(default=None, repr=False)

    def position(self, path: JsonPath) -> tuple[int, int]:
        """1-based line and column of the value at `path`, or of its closest ancestor."""
        try:
            offset = _json_offset(self.text, path) if self.is_json else _yaml_offset(self, path)
        except (ValueError, IndexError, KeyError, TypeError):
            offset = 0
        return _line_col(self.text, offset)

    def diagnostic(self, path: JsonPath, message: str, level: Level = "error") -> Diagnostic:
        """A diagnostic at `path` in this file."""
        line, col = self.position(path)
        return Diagnostic(self.file, line, col, format_path(path), message, level)


def format_path(path: JsonPath) -> str:
    """`("paths", "/pets", "get")` → `paths["/pets"].get`."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part.replace("_", "").replace("-", "").isalnum() and not part[:1].isdigit():
            text += f".{part}" if text else part
        else:
            text += f"[{json.dumps(part, ensure_ascii=False)}]"
    return text


def read_spec(raw: bytes, file: str) -> SpecDocument:
    """Parse the bytes of a spec file; SpecUnreadable when they are not JSON or YAML."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        message = f"the OpenAPI document is not UTF-8 text (byte {exc.start} cannot be decoded)"
        raise SpecUnreadable(Diagnostic(file, 1, 1, "", message)) from None
    digest = hashlib.sha256(raw).hexdigest()
    stripped = text.lstrip(_WHITESPACE)
    if stripped.startswith("{"):
        try:
            return SpecDocument(file, json.loads(text), text, digest, is_json=True)
        except json.JSONDecodeError as exc:
            if file.endswith(".json"):
                line, col = exc.lineno, exc.colno
                message = f"the OpenAPI document is not valid JSON: {exc.msg}"
                raise SpecUnreadable(Diagnostic(file, line, col, "", message)) from None
    return _read_yaml(text, file, digest)


def _read_yaml(text: str, file: str, digest: str) -> SpecDocument:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="safe")
    try:
        root = yaml.compose(io.StringIO(text))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = f"the OpenAPI document is neither JSON nor YAML: {exc.problem or exc}"
        raise SpecUnreadable(Diagnostic(file, line, col, "", message)) from None
    except (YAMLError, ValueError) as exc:
        message = f"the OpenAPI document is neither JSON nor YAML: {exc}"
        raise SpecUnreadable(Diagnostic(file, 1, 1, "", message)) from None
    if root is None:
        raise SpecUnreadable(Diagnostic(file, 1, 1, "", "the OpenAPI document is empty"))
    data = _plain(yaml.constructor.construct_document(root))
    return SpecDocument(file, data, text, digest, is_json=False, _yaml_root=root)


def _plain(value: Any) -> Any:
    """YAML's extra scalar types as JSON has them: dates as ISO text, keys as strings."""
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return value


def _line_col(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _skip_ws(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _json_offset(text: str, path: JsonPath) -> int:
    """Offset of the value at `path` (or of the deepest ancestor found) in JSON `text`."""
    index = _skip_ws(text, 0)
    for part in path:
        found = _json_child(text, index, part)
        if found is None:
            return index
        index = found
    return index


def _json_child(text: str, index: int, part: str | int) -> int | None:
    """Offset of member `part` of the object or array starting at `index`."""
    opener = text[index]
    if opener not in "{[" or (opener == "{") != isinstance(part, str):
        return None
    index = _skip_ws(text, index + 1)
    position = 0
    while index < len(text) and text[index] not in "}]":
        if opener == "{":
            key, index = json.decoder.scanstring(text, index + 1)  # type: ignore[attr-defined]
            index = _skip_ws(text, _skip_ws(text, index) + 1)  # past the colon
            if key == part:
                return index
        elif position == part:
            return index
        _, end = _DECODER.raw_decode(text, index)
        index = _skip_ws(text, end)
        if index < len(text) and text[index] == ",":
            index = _skip_ws(text, index + 1)
        position += 1
    return None


def _yaml_offset(document: SpecDocument, path: JsonPath) -> int:
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    node = document._yaml_root
    for part in path:
        child = None
        if isinstance(node, MappingNode) and isinstance(part, str):
            child = next((v for k, v in node.value if getattr(k, "value", None) == part), None)
        elif isinstance(node, SequenceNode) and isinstance(part, int) and part < len(node.value):
            child = node.value[part]
        if child is None:
            break
        node = child
    return int(node.start_mark.index)
