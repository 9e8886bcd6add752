"""The one Jinja environment mcpgen renders with, and its filters."""

from __future__ import annotations

import json
import re
import textwrap
import unicodedata
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from mcpgen.core.template_folder import templates_root
from mcpgen.render.docs import inline_text, table_cell


def pyrepr(value: object, indent: int = 0) -> str:
    """A Python literal for JSON-like data, strings in double quotes, on one line: ruff lays
    it out afterwards (`render/layout.py`). `indent` is accepted for templates written when
    this filter did the layout itself, and ignored."""
    del indent
    return _flat_literal(value)


def _flat_literal(value: object) -> str:
    if isinstance(value, str):
        # A JSON string is a valid Python string literal with the same value.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{_flat_literal(str(k))}: {_flat_literal(v)}" for k, v in value.items())
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(_flat_literal(v) for v in value) + "]"
    if isinstance(value, tuple):
        trailing = "," if len(value) == 1 else ""
        return "(" + ", ".join(_flat_literal(v) for v in value) + trailing + ")"
    return repr(value)  # None, bools and numbers


def docstring(text: str, indent: int = 0, width: int = 96) -> str:
    """Text safe inside a triple-quoted docstring, wrapped to `width` columns."""
    escaped = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').strip()
    # Control characters (a NUL breaks the module) become escapes; newlines are re-wrapped.
    escaped = "".join(
        f"\\x{ord(c):02x}" if unicodedata.category(c) == "Cc" and c not in "\n\t" else c
        for c in escaped
    )
    if escaped.endswith('"'):  # would merge with the closing quotes
        escaped = escaped[:-1] + '\\"'
    lines = textwrap.wrap(escaped, width=width - indent, break_long_words=False) or [""]
    return ("\n" + " " * indent).join(lines)


# Scalars YAML 1.1 and 1.2 loaders both read as strings when left unquoted.
_PLAIN_SAFE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*|\d+(\.\d+){2,}")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


def yaml_scalar(value: str) -> str:
    """`value` as a YAML string scalar: bare when unambiguous, else double-quoted (JSON)."""
    if _PLAIN_SAFE.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def import_from(module: str, names: list[str]) -> str:
    """`from module import a, b` (each name once); ruff sorts and wraps it afterwards."""
    return f"from {module} import {', '.join(sorted(set(names)))}"


def isort_sorted(items: list[Any], attribute: str) -> list[Any]:
    """`items` sorted by `attribute`, for a stable template order; ruff sorts the imports."""
    return sorted(items, key=lambda item: str(getattr(item, attribute)))


TEMPLATE_FILTERS = {
    "import_from": import_from,
    "isort_sorted": isort_sorted,
    "pyrepr": pyrepr,
    "cell": table_cell,
    "inline": inline_text,
    "docstring": docstring,
    "yaml_str": yaml_scalar,
}


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The one Jinja environment: generated files, and the example manifest."""
    env = Environment(
        # Generated files by their own name; other folders by path (`examples/…`).
        loader=FileSystemLoader([templates_root() / "generated", templates_root()]),
        undefined=StrictUndefined,  # a typo in a template is an error, not an empty string
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters.update(TEMPLATE_FILTERS)
    return env
