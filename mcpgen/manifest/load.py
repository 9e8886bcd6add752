"""YAML text → plain JSON data, a source map, and diagnostics for every YAML trap found.

The document is composed to a node tree (ruamel.yaml, YAML 1.2) and the plain data is built
from the nodes here rather than by ruamel's constructor, so that one pass can report every
duplicate key, date, non-string key or unsupported tag at its own line instead of stopping at
the first one.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError

from mcpgen.errors import Diagnostic, Level
from mcpgen.manifest.sourcemap import JsonPath, Position, SourceMap, format_path

_TAG = "tag:yaml.org,2002:"
_STR, _MAP, _SEQ, _MERGE = f"{_TAG}str", f"{_TAG}map", f"{_TAG}seq", f"{_TAG}merge"
_JSON_SCALARS = {f"{_TAG}{name}" for name in ("int", "float", "bool", "null")}
_TIMESTAMP = f"{_TAG}timestamp"
_KEY_KIND = {
    f"{_TAG}int": "a number",
    f"{_TAG}float": "a number",
    f"{_TAG}bool": "a boolean",
    f"{_TAG}null": "null",
}
# YAML 1.1 reads these as booleans (PyYAML, go-yaml v2, many CI tools); YAML 1.2 as strings.
_YAML11_BOOL = re.compile(r"y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF")


@dataclass
class LoadedYaml:
    """The outcome of reading one YAML document: `data` is None when it could not be parsed."""

    data: Any
    source_map: SourceMap
    diagnostics: list[Diagnostic] = field(default_factory=list)


def load_yaml(text: str, file: str) -> LoadedYaml:
    """Parse `text`; never raises for bad input: every problem becomes a diagnostic."""
    yaml = YAML(typ="safe", pure=True)
    try:
        root = _compose(text, yaml)
    except YAMLError as exc:
        return LoadedYaml(None, SourceMap(), _syntax_diagnostics(exc, text, file))
    if root is None:
        message = "the manifest is empty; it needs at least `name`, `version` and `tools`"
        return LoadedYaml(None, SourceMap(), [Diagnostic(file, 1, 1, "", message)])
    builder = _Builder(file, yaml)
    data = builder.build(root, ())
    if not isinstance(root, MappingNode):
        builder.error(root, (), f"the manifest must be a mapping of keys, not {_kind(data)}")
        data = None
    return LoadedYaml(data, builder.source_map, builder.diagnostics)


def _compose(text: str, pure: YAML) -> Node | None:
    """The node tree, parsed by libyaml when ruamel.yaml.clib is installed (about 7x faster).

    When libyaml refuses the text, the pure-Python parser decides: it reads a few YAML 1.2
    forms libyaml does not (`[12:30]`), and its error messages are the ones users see, so
    verdicts and messages do not depend on whether the C extension is installed.
    """
    fast = YAML(typ="safe")
    if fast.Parser is not pure.Parser:
        try:
            node: Node | None = fast.compose(io.StringIO(text))
            return node
        except (YAMLError, ValueError):  # ValueError: libyaml cannot encode lone surrogates
            pass
    node = pure.compose(io.StringIO(text))
    return node


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    return "null" if value is None else f"a {type(value).__name__}"


def _position(node: Node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    """Builds plain data from a node tree, recording positions and problems on the way."""

    def __init__(self, file: str, yaml: YAML) -> None:
        self.file = file
        self.yaml = yaml
        self.source_map = SourceMap()
        self.diagnostics: list[Diagnostic] = []
        self._building: set[int] = set()  # nodes on the current path: an alias to one is a loop
        self._built: dict[int, Any] = {}  # an alias reuses the value built at its anchor

    def error(self, node: Node, path: JsonPath, message: str, level: Level = "error") -> None:
        line, col = _position(node)
        self.diagnostics.append(Diagnostic(self.file, line, col, format_path(path), message, level))

    def build(self, node: Node, path: JsonPath) -> Any:
        key = id(node)
        if key in self._building:
            # The node is the anchor's; the alias that loops back is best shown by its key.
            line, col = self.source_map.key_at(path)
            message = "recursive alias: this value contains itself (JSON cannot hold a cycle)"
            self.diagnostics.append(Diagnostic(self.file, line, col, format_path(path), message))
            return None
        if key in self._built:
            # Recorded once at the anchor: positions under an alias fall back to the alias key.
            return self._built[key]
        self.source_map.values[path] = _position(node)
        self._building.add(key)
        try:
            if isinstance(node, MappingNode):
                value: Any = self._mapping(node, path)
            elif isinstance(node, SequenceNode):
                value = self._sequence(node, path)
            else:
                assert isinstance(node, ScalarNode)  # the only other node kind
                value = self._scalar(node, path)
        finally:
            self._building.discard(key)
        self._built[key] = value
        return value

    def _sequence(self, node: SequenceNode, path: JsonPath) -> list[Any]:
        if node.tag != _SEQ:
            self.error(
                node,
                path,
                f"the YAML tag {_short_tag(node.tag)} is not supported; "
                "a manifest holds only JSON values",
            )
        return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]

    def _mapping(self, node: MappingNode, path: JsonPath) -> dict[str, Any]:
        if node.tag != _MAP:
            self.error(
                node,
                path,
                f"the YAML tag {_short_tag(node.tag)} is not supported; "
                "a manifest holds only JSON values",
            )
        result: dict[str, Any] = {}
        merges: list[tuple[Node, Node]] = []
        for key_node, value_node in node.value:
            # Read once: ruamel.yaml builds the tag's text anew on every `.tag`.
            key_tag = key_node.tag
            if key_tag == _MERGE:
                merges.append((key_node, value_node))
                continue
            key = self._key(key_node, key_tag, path)
            if key is None:
                continue
            key_path = (*path, key)
            if key in result:
                first_line = self.source_map.keys[key_path][0]
                self.error(
                    key_node,
                    key_path,
                    f"duplicate key '{key}' (first defined at line {first_line})",
                )
                continue
            self.source_map.keys[key_path] = _position(key_node)
            result[key] = self.build(value_node, key_path)
            self._warn_split_flow_value(node, key_node, value_node, key_path)
        for key_node, value_node in merges:
            self._merge(result, key_node, value_node, path)
        return result

    def _warn_split_flow_value(
        self, node: MappingNode, key_node: Node, value_node: Node, path: JsonPath
    ) -> None:
        """`{description: City name, e.g. Paris}`: the comma ends the value, and `e.g. Paris`
        becomes a key of its own with no value. Almost always meant as one quoted string."""
        if not node.flow_style or not isinstance(key_node, ScalarNode):
            return
        empty = (
            isinstance(value_node, ScalarNode)
            and value_node.value == ""
            and (value_node.tag == "tag:yaml.org,2002:null")
        )
        if empty and " " in str(key_node.value) and not key_node.style:
            self.error(
                key_node,
                path,
                "this looks like the rest of the previous value, cut off "
                'at a comma: quote that value ("City name, e.g. Paris")',
                "warning",
            )

    def _merge(
        self, result: dict[str, Any], key_node: Node, value_node: Node, path: JsonPath
    ) -> None:
        """`<<: *base` or `<<: [*a, *b]`: keys written in the mapping win, then earlier sources."""
        sources = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
        for source in sources:
            if not isinstance(source, MappingNode):
                self.error(source, path, "a '<<' merge takes a mapping or a list of mappings")
                continue
            merged = self.build(source, path)
            for key, value in merged.items():
                if key not in result:
                    result[key] = value
                    self.source_map.keys.setdefault((*path, key), _position(key_node))

    def _key(self, node: Node, tag: str | None, path: JsonPath) -> str | None:
        """A mapping key as a string, or None (with an error) when it cannot be one."""
        if not isinstance(node, ScalarNode):
            self.error(node, path, "a key must be a string, not a list or a mapping")
            return None
        text: str = node.value
        if tag == _STR:
            self._warn_yaml11_bool(node, (*path, text))
        elif tag in _KEY_KIND:
            shown = text or "(empty)"
            self.error(
                node,
                (*path, text),
                f"the key {shown} is read as {_KEY_KIND[tag]}, not a string; quote it: '{text}'",
            )
        elif tag == _TIMESTAMP:
            self.error(
                node,
                (*path, text),
                f"the key {text} is read as a date, not a string; quote it: '{text}'",
            )
        else:
            self.error(
                node,
                (*path, text),
                f"the YAML tag {_short_tag(tag)} is not supported on a key",
            )
        return text

    def _scalar(self, node: ScalarNode, path: JsonPath) -> Any:
        text: str = node.value
        tag = node.tag
        if tag == _STR:
            self._warn_yaml11_bool(node, path)
            return text
        if tag == _TIMESTAMP:
            self.error(node, path, f"unquoted date; quote it: '{text}'")
            return text
        if tag not in _JSON_SCALARS:
            self.error(
                node,
                path,
                f"the YAML tag {_short_tag(tag)} is not supported; "
                "a manifest holds only JSON values",
            )
            return text
        try:
            value = self.yaml.constructor.construct_object(node, deep=True)
        except (YAMLError, ValueError, TypeError):
            # An explicit tag on text that does not fit it, such as `!!int abc`.
            self.error(node, path, f"'{text}' is not a valid {_short_tag(node.tag)}")
            return text
        self.source_map.scalar_text[path] = text
        if isinstance(value, float) and not math.isfinite(value):
            self.error(node, path, f"'{text}' is not a JSON number (JSON has no infinity or NaN)")
            return text
        return value

    def _warn_yaml11_bool(self, node: ScalarNode, path: JsonPath) -> None:
        plain = not node.style  # None from the pure parser, "" from libyaml
        if plain and _YAML11_BOOL.fullmatch(node.value):
            self.error(
                node,
                path,
                f"unquoted '{node.value}' is a boolean for YAML 1.1 tools; "
                f"quote it: '{node.value}'",
                level="warning",
            )


def _short_tag(tag: str | None) -> str:
    if tag is None:
        return "(none)"
    return f"!!{tag.removeprefix(_TAG)}" if tag.startswith(_TAG) else tag


def _syntax_diagnostics(exc: YAMLError, text: str, file: str) -> list[Diagnostic]:
    """One diagnostic for the parse error, plus one per tab used for indentation.

    Tabs are reported line by line because the parser stops at the first one, and a file
    indented with tabs usually has many.
    """
    tabs = _tab_diagnostics(text, file)
    tab_lines = {d.line for d in tabs}
    line, col, message = _describe_yaml_error(exc, text)
    if line in tab_lines:  # the parser tripped over a tab already reported
        return tabs
    return sorted([*tabs, Diagnostic(file, line, col, "", message)])


def _describe_yaml_error(exc: YAMLError, text: str) -> tuple[int, int, str]:
    if isinstance(exc, ReaderError):
        before = text[: exc.position]
        line = before.count("\n") + 1
        col = exc.position - (before.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        return line, col, f"YAML does not allow the control character {char!r} here"
    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        context = ""
        if exc.context and exc.problem and exc.problem.startswith("but "):
            problem = f"{exc.context}, {exc.problem}"  # "expected a single document…, but found…"
        elif exc.context and exc.problem and exc.context_mark is not None:
            context = f" ({exc.context} started at line {exc.context_mark.line + 1})"
        if mark is not None:
            return mark.line + 1, mark.column + 1, f"YAML syntax error: {problem}{context}"
        return 1, 1, f"YAML syntax error: {problem}{context}"
    return 1, 1, f"YAML syntax error: {exc}"


def _tab_diagnostics(text: str, file: str) -> list[Diagnostic]:
    diagnostics = []
    for number, line in enumerate(text.splitlines(), start=1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent:
            message = "tab character in indentation; YAML indents with spaces only"
            diagnostics.append(Diagnostic(file, number, indent.index("\t") + 1, "", message))
    return diagnostics
