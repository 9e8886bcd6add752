"""The schema patterns a tool table declares valid, so the server need not load regress to
check them again (`declare_valid` in the runtime's `validation/regex_worker.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcpgen.manifest.model import Manifest
from mcpgen.runtime.validation.regex_worker import compile_unicode


def _strings_used_as_patterns(node: Any) -> Iterator[str]:
    """Every `pattern` value and `patternProperties` key anywhere in a schema. A string taken
    for one that is not (a property named `pattern`) costs nothing: only what compiles is kept."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            elif key == "patternProperties" and isinstance(value, dict):
                yield from (k for k in value if isinstance(k, str))
            yield from _strings_used_as_patterns(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings_used_as_patterns(item)


def _compiles_in_unicode_mode(pattern: str) -> bool:
    try:
        compile_unicode(pattern)
    except Exception:  # regress's error, or anything else: then the server checks it itself
        return False
    return True


def declared_patterns(manifest: Manifest) -> list[str]:
    """The tools' schema patterns that regress compiles in Unicode mode, sorted."""
    found = {
        pattern
        for tool in manifest.tools
        for schema in (tool.input_schema, tool.output_schema)
        if schema is not None
        for pattern in _strings_used_as_patterns(schema)
    }
    return sorted(p for p in found if _compiles_in_unicode_mode(p))
