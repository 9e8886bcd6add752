"""Deterministic serialisation of snippets: built as data, never from string templates.

Windows paths need `\\` in JSON and TOML; a serialiser gets that right every time.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from ruamel.yaml import YAML

Format = Literal["json", "jsonc", "toml", "yaml"]


def dump_json(data: Any) -> str:
    """Two-space JSON, non-ASCII kept as is, with a final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _dump_toml(data: dict[str, Any]) -> str:
    import tomlkit  # loaded when a TOML host is rendered, not at `mcpgen --help`

    return tomlkit.dumps(data)


def yaml_engine() -> YAML:
    """Round-trip YAML: keeps comments when editing a user's file, insertion order when writing."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.default_flow_style = False
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096  # never fold a long path or URL onto two lines
    return yaml


def _dump_yaml(data: Any) -> str:
    buffer = io.StringIO()
    yaml_engine().dump(data, buffer)
    return buffer.getvalue()


def dump(fmt: Format, data: Any) -> str:
    """The snippet's text in the host's format; JSONC is written as plain JSON."""
    if fmt == "toml":
        return _dump_toml(data)
    if fmt == "yaml":
        return _dump_yaml(data)
    return dump_json(data)
