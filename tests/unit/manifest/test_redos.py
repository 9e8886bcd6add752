"""`mcpgen validate` warns about schema regexes prone to catastrophic backtracking."""

from __future__ import annotations

import io
from typing import Any

import pytest
from ruamel.yaml import YAML

from mcpgen.manifest import check_text
from mcpgen.manifest.redos import backtracking_risk


def manifest(schema: dict[str, Any], **tool: Any) -> str:
    data = {
        "name": "w",
        "version": "0.1.0",
        "tools": [{"name": "t", "description": "T.", "input_schema": schema, **tool}],
    }
    text = io.StringIO()
    YAML(typ="safe", pure=True).dump(data, text)
    return text.getvalue()


@pytest.mark.parametrize(
    "pattern",
    [
        "^(a+)+$",
        "(a*)*",
        "^(a|aa)+$",
        "^(a|ab)*$",
        "(\\w+\\s?)*$",
        "^(\\p{L}+)*$",
        "(?<x>a+)+",
        "^(\\w+-?)*$",
        "(x\\w+)*y",
    ],
)
def test_risky_patterns(pattern: str) -> None:
    assert backtracking_risk(pattern) is not None


@pytest.mark.parametrize(
    "pattern",
    [
        "^[a-z]+$",
        "^([a-z0-9]|-)+$",
        "^\\d{3}-\\d{4}$",
        "^(ab|cd)*$",
        "^(https?|ftp)://",
        "[",
        "^[A-Z][A-Z0-9_]+-\\d+(?:-\\d+)*$",
        "^([a-z]+\\.)*[a-z]+$",
        "^\\w+(,\\w+)*$",
    ],
)
def test_safe_or_unreadable_patterns(pattern: str) -> None:
    assert backtracking_risk(pattern) is None


def test_validate_warns_at_the_pattern_and_still_accepts_the_manifest() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string", "pattern": "^(a+)+$"}},
        "patternProperties": {"^(x|xy)*$": {"type": "string"}},
    }
    typed, diagnostics = check_text(manifest(schema), "mcpgen.yaml")
    assert typed is not None
    warnings = sorted(str(d) for d in diagnostics if d.level == "warning")
    assert len(warnings) == 2
    assert "tools[0] (t).input_schema.properties.name.pattern: warning: the pattern '^(a+)+$'" in (
        warnings[0] + warnings[1]
    )
    assert all("catastrophic backtracking" in w for w in warnings)


def test_the_warning_says_whether_the_server_matches_in_linear_time() -> None:
    schema = {
        "type": "object",
        "properties": {
            "linear": {"type": "string", "pattern": "^(a+)+$"},
            "backtracking": {"type": "string", "pattern": "^(a+)+\\1$"},
        },
    }
    _, diagnostics = check_text(manifest(schema), "mcpgen.yaml")
    by_property = {
        name: str(d)
        for d in diagnostics
        for name in ("linear", "backtracking")
        if f".properties.{name}." in str(d)
    }
    assert "this server matches it in linear time" in by_property["linear"]
    assert "pattern evaluation took too long" in by_property["backtracking"]
