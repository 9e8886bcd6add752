"""The spec validator's verdict: located problems, warnings for slips, a cache by content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcpgen.openapi import validate
from mcpgen.openapi.spec_file import read_spec

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/a": {
            "get": {
                "operationId": "a",
                "parameters": [
                    {"name": "q", "in": "query", "schema": {"type": "string", "default": None}}
                ],
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPGEN_CACHE_DIR", str(tmp_path / "cache"))


def test_a_default_its_schema_refuses_is_a_located_warning_remembered_with_the_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = json.dumps(SPEC, indent=1)
    document = read_spec(text.encode(), "s.json")
    warnings = validate.spec_problems(document)
    assert warnings
    for warning in warnings:
        assert warning.level == "warning" and "does not match this schema" in warning.message
        assert '"schema"' in text.splitlines()[warning.line - 1]

    def never(*_: object) -> None:
        raise AssertionError("validated twice")

    monkeypatch.setattr(validate, "_validator_problems", never)
    again = validate.spec_problems(read_spec(text.encode(), "s.json"))
    assert again == warnings


def test_an_invalid_document_is_never_remembered_as_valid(tmp_path: Path) -> None:
    broken = {**SPEC, "paths": {"/a": {"get": {"responses": {"200": {}}}}}}
    document = read_spec(json.dumps(broken).encode(), "s.json")
    problems = validate.spec_problems(document)
    assert problems and problems[0].level == "error"
    assert not (tmp_path / "cache" / "openapi-valid").exists()


def test_an_unknown_version_is_refused() -> None:
    document = read_spec(b'{"openapi": "4.0.0", "paths": {}}', "s.json")
    (problem,) = validate.spec_problems(document)
    assert "unsupported OpenAPI version '4.0.0'" in problem.message
