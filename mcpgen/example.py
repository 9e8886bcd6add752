"""The manifest `mcpgen new NAME` starts from when no `--manifest` is given."""

from __future__ import annotations

import json
import re

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from mcpgen.render.env import templates_root

# Scalars YAML 1.1 and 1.2 loaders both read as strings when left unquoted.
_PLAIN_SAFE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*|\d+(\.\d+){2,}")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


def yaml_scalar(value: str) -> str:
    """`value` as a YAML string scalar: bare when unambiguous, else double-quoted (JSON)."""
    if _PLAIN_SAFE.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def example_manifest_text(name: str, version: str = "0.1.0") -> str:
    """The example weather manifest, with `name` as the server name."""
    env = Environment(
        loader=FileSystemLoader(str(templates_root() / "examples")),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["yaml_str"] = yaml_scalar
    return env.get_template("weather.yaml.jinja").render(name=name, version=version)
