"""Read and edit one server entry inside a host's config file, format by format.

Each editor changes only the text of its own entry (JSON/JSONC through `jsonc`, TOML through
tomlkit, YAML through ruamel round-trip), so comments and everything else survive.
`without` gives the data minus this entry, which `install` uses to prove nothing else changed.
"""

from __future__ import annotations

import copy
import io
import itertools
import re
from typing import Any, Protocol

import tomlkit
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from tomlkit.exceptions import TOMLKitError

from mcpgen.errors import McpgenError
from mcpgen.hosts import jsonc
from mcpgen.hosts.base import JSON, Host, Target
from mcpgen.hosts.formats import dump_json, yaml_engine

_INPUT_REF = re.compile(r"\$\{input:([^}]+)\}")


class Editor(Protocol):
    """One format's way to read a config file and change only this server's entry in it."""

    def load(self, text: str) -> Any:
        """The file's data as plain dicts and lists; a file that does not parse is an error."""

    def get(self, data: Any) -> Any:
        """This server's entry in loaded data, or None when there is none."""

    def side_ok(self, data: Any) -> bool:
        """Whether the items the entry refers to besides itself are already in place."""

    def put(self, text: str, entry: JSON) -> str:
        """The file's text with this server's entry added or replaced, the rest as it was."""

    def delete(self, text: str) -> str:
        """The file's text without this server's entry (and the side items only it used)."""

    def without(self, data: Any) -> Any:
        """Loaded data minus this server's entry: what an edit must leave equal."""

    def fresh(self) -> str:
        """The text of a config file that does not exist yet."""


def _unparsable(path_label: str, detail: str) -> McpgenError:
    return McpgenError(
        f"{path_label} is not valid ({detail}); it was left unchanged. "
        "Fix it by hand, or pass --config-path to use another file."
    )


def _plain(value: Any) -> Any:
    """ruamel/tomlkit containers → plain dicts and lists, for comparisons."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "unwrap"):
        return value.unwrap()
    return value


def _drop_entry(data: Any, container: tuple[str, ...], name: str, as_list: bool) -> Any:
    data = copy.deepcopy(_plain(data))
    if not isinstance(data, dict):
        return data
    parent: Any = data
    for key in container[:-1]:
        parent = parent.get(key) if isinstance(parent.get(key), dict) else {}
    last = container[-1]
    holder = parent.get(last)
    if as_list and isinstance(holder, list):
        holder[:] = [i for i in holder if not (isinstance(i, dict) and i.get("name") == name)]
    elif isinstance(holder, dict):
        holder.pop(name, None)
    if holder in ({}, []):
        parent.pop(last, None)
    return data


class JsonEditor:
    """JSON and JSONC files; strict JSON hosts are parsed strictly (no comments allowed)."""

    def __init__(self, host: Host, target: Target, label: str) -> None:
        self.host, self.target, self.label = host, target, label
        self.jsonc = host.fmt == "jsonc"
        self.path = (*host.container, target.server)

    def load(self, text: str) -> Any:
        """The parsed object; comments are allowed only in a JSONC host's file."""
        try:
            data = jsonc.loads(text, jsonc=self.jsonc)
        except jsonc.JsoncError as exc:
            raise _unparsable(self.label, str(exc)) from None
        if not isinstance(data, dict):
            raise _unparsable(self.label, "the top level is not a JSON object")
        return data

    def get(self, data: Any) -> Any:
        """The value at the host's container path and the server's name."""
        node = data
        for key in self.path:
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node

    def side_ok(self, data: Any) -> bool:
        """Whether every side item (VS Code input) is already there, unchanged."""
        array = self.host.side_array
        wanted = self.host.side_items(self.target)
        have = data.get(array, []) if array else []
        return all(item in have for item in wanted)

    def put(self, text: str, entry: JSON) -> str:
        """The entry set in place, and the side items it needs added or updated by `id`."""
        try:
            text = jsonc.set_member(text, self.path, entry, jsonc=self.jsonc)
            items = self.host.side_items(self.target)
            if self.host.side_array and items:
                text = jsonc.upsert_items(
                    text, (self.host.side_array,), items, "id", jsonc=self.jsonc
                )
        except jsonc.JsoncError as exc:
            raise _unparsable(self.label, str(exc)) from None
        return text

    def delete(self, text: str) -> str:
        """The entry removed, with the VS Code inputs named after this server."""
        data = self.load(text)
        refs = set(_INPUT_REF.findall(dump_json(self.get(data) or {})))
        ours = {r for r in refs if r.startswith(f"{self.target.server}-")}
        text = jsonc.remove_member(text, self.path, jsonc=self.jsonc)
        if self.host.side_array and ours:
            text = jsonc.remove_items(text, (self.host.side_array,), "id", ours, jsonc=self.jsonc)
        return text

    def without(self, data: Any) -> Any:
        """The data minus the entry and the side items named after this server."""
        stripped = _drop_entry(data, self.host.container, self.target.server, False)
        array = self.host.side_array
        if array and isinstance(stripped.get(array), list):
            prefix = f"{self.target.server}-"
            kept = [
                i
                for i in stripped[array]
                if not (isinstance(i, dict) and str(i.get("id", "")).startswith(prefix))
            ]
            if kept:
                stripped[array] = kept
            else:
                del stripped[array]
        return stripped

    def fresh(self) -> str:
        """The host's fresh document as JSON."""
        return dump_json(self.host.fresh_document(self.target))


class TomlEditor:
    """Codex's config.toml through tomlkit, which keeps comments and layout."""

    def __init__(self, host: Host, target: Target, label: str) -> None:
        self.host, self.target, self.label = host, target, label
        self.table = host.container[0]

    def _parse(self, text: str) -> tomlkit.TOMLDocument:
        try:
            return tomlkit.parse(text)
        except TOMLKitError as exc:
            raise _unparsable(self.label, str(exc)) from None

    def load(self, text: str) -> Any:
        """The parsed TOML as plain data."""
        return _plain(self._parse(text))

    def get(self, data: Any) -> Any:
        """This server's table under the host's top-level table."""
        servers = data.get(self.table)
        return servers.get(self.target.server) if isinstance(servers, dict) else None

    def side_ok(self, data: Any) -> bool:
        """Always: TOML hosts have no side items."""
        return True

    def put(self, text: str, entry: JSON) -> str:
        """The server's table written in place, the top-level table made if missing."""
        doc = self._parse(text)
        servers = doc.get(self.table)
        if servers is None:
            servers = tomlkit.table(is_super_table=True)
            doc[self.table] = servers
        table = tomlkit.table()
        table.update(entry)
        table.add(tomlkit.nl())  # a blank line before whatever table follows
        servers[self.target.server] = table
        result = tomlkit.dumps(doc)
        return result.rstrip("\n") + "\n" if result.endswith("\n\n") else result

    def delete(self, text: str) -> str:
        """The server's table removed."""
        doc = self._parse(text)
        servers = doc.get(self.table)
        if servers is not None and self.target.server in servers:
            del servers[self.target.server]
        return tomlkit.dumps(doc)

    def without(self, data: Any) -> Any:
        """The data minus this server's table."""
        return _drop_entry(data, self.host.container, self.target.server, False)

    def fresh(self) -> str:
        """Empty: a new config.toml starts with nothing but the entry."""
        return ""


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def guess_yaml_indent(text: str) -> tuple[int, int]:
    """The file's mapping indent and its `- ` offset under a key (2 and 2 when unknown).

    ruamel's own guess mixes the two, and re-indenting a user's file would change lines
    outside our entry.
    """
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    mapping = offset = None
    for previous, line in itertools.pairwise(lines):
        if not previous.rstrip().endswith(":"):
            continue
        step = _indent_of(line) - _indent_of(previous)
        if line.lstrip().startswith("- "):
            offset = step if offset is None else offset
        elif step > 0 and mapping is None:
            mapping = step
    return mapping or 2, 2 if offset is None else offset


class YamlEditor:
    """Continue's and Goose's YAML through ruamel round-trip, in the file's own indentation."""

    def __init__(self, host: Host, target: Target, label: str) -> None:
        self.host, self.target, self.label = host, target, label
        self.key = host.container[0]

    def _parse(self, text: str) -> tuple[Any, Any]:
        engine = yaml_engine()
        try:
            data = engine.load(text)
        except YAMLError as exc:
            raise _unparsable(self.label, str(exc).replace("\n", " ")) from None
        mapping, offset = guess_yaml_indent(text)
        engine.indent(mapping=mapping, sequence=offset + 2, offset=offset)
        if data is None:
            data = CommentedMap()
        if not isinstance(data, dict):
            raise _unparsable(self.label, "the top level is not a mapping")
        return data, engine

    def load(self, text: str) -> Any:
        """The parsed YAML as plain data; an empty file is an empty mapping."""
        return _plain(self._parse(text)[0])

    def get(self, data: Any) -> Any:
        """The entry by key, or by `name` in a host that keeps a list (Continue)."""
        holder = data.get(self.key)
        if self.host.entries_are_list:
            if not isinstance(holder, list):
                return None
            return next(
                (i for i in holder if isinstance(i, dict) and i.get("name") == self.target.server),
                None,
            )
        return holder.get(self.target.server) if isinstance(holder, dict) else None

    def _dump(self, data: Any, engine: Any) -> str:
        buffer = io.StringIO()
        engine.dump(data, buffer)
        return buffer.getvalue()

    def side_ok(self, data: Any) -> bool:
        """Always: YAML hosts have no side items."""
        return True

    def put(self, text: str, entry: JSON) -> str:
        """The entry replaced in place or appended, written in the file's own indentation."""
        data, engine = self._parse(text)
        holder = data.get(self.key)
        if self.host.entries_are_list:
            if holder is None:
                holder = data[self.key] = CommentedSeq()
            index = next(
                (
                    n
                    for n, i in enumerate(holder)
                    if isinstance(i, dict) and i.get("name") == self.target.server
                ),
                None,
            )
            if index is None:
                holder.append(entry)
            else:
                holder[index] = entry
        else:
            if holder is None:
                holder = data[self.key] = CommentedMap()
            holder[self.target.server] = entry
        return self._dump(data, engine)

    def delete(self, text: str) -> str:
        """Every entry under this server's key or `name` removed."""
        data, engine = self._parse(text)
        holder = data.get(self.key)
        if self.host.entries_are_list and isinstance(holder, list):
            for index in reversed(range(len(holder))):
                item = holder[index]
                if isinstance(item, dict) and item.get("name") == self.target.server:
                    del holder[index]
        elif isinstance(holder, dict):
            holder.pop(self.target.server, None)
        return self._dump(data, engine)

    def without(self, data: Any) -> Any:
        """The data minus this server's entry."""
        return _drop_entry(
            data, self.host.container, self.target.server, self.host.entries_are_list
        )

    def fresh(self) -> str:
        """The host's fresh document as YAML, or empty text if it has none."""
        document = self.host.fresh_document(self.target)
        return self._dump(document, yaml_engine()) if document else ""


def editor_for(host: Host, target: Target, label: str) -> Editor:
    """The editor for the host's file format; JSON covers JSONC."""
    if host.fmt == "toml":
        return TomlEditor(host, target, label)
    if host.fmt == "yaml":
        return YamlEditor(host, target, label)
    return JsonEditor(host, target, label)
