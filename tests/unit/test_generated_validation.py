"""The generated servers' validation module: jsonschema-rs decides, python jsonschema words
the errors, and the two must agree on every verdict (else a call could be refused with no
reason given, or accepted against the contract)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mcpgen.render.env import environment
from mcpgen.render.invalid import invalid_arguments

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real"
SAMPLES: list[Any] = ["x", "", "Émile", 0, -1, 1.5, True, None, [], ["a"], {}, {"a": 1}]


@pytest.fixture(scope="module")
def validation(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    source = environment().get_template("validation.py.jinja").render(header="# test copy")
    path = tmp_path_factory.mktemp("generated") / "validation.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("generated_validation", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["generated_validation"] = module
    spec.loader.exec_module(module)
    return module


def instances(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield {}
    wrong = invalid_arguments(schema)
    if wrong is not None:
        yield wrong
    for name in schema.get("properties") or {}:
        for value in SAMPLES:
            yield {name: value}


def corpus_schemas() -> list[Any]:
    if not CORPUS.is_dir():
        return []
    found = []
    for path in sorted(CORPUS.glob("*.json")):
        for tool in json.loads(path.read_text(encoding="utf-8")):
            found.append(pytest.param(tool["inputSchema"], id=f"{path.stem}:{tool['name']}"))
    return found


@pytest.mark.parametrize("schema", corpus_schemas())
def test_fast_and_described_verdicts_agree(validation: ModuleType, schema: dict[str, Any]) -> None:
    check = validation.SchemaCheck(schema)
    for instance in instances(schema):
        fast_valid = check._fast.is_valid(instance)
        described = list(check._describing().iter_errors(instance))
        assert fast_valid == (not described), (instance, [e.message for e in described])


def test_patterns_are_ecma_262(validation: ModuleType) -> None:
    pattern = "^\\p{Lu}\\p{Ll}+$"
    check = validation.SchemaCheck(
        {"type": "object", "properties": {"name": {"type": "string", "pattern": pattern}}}
    )
    assert check.problems({"name": "Émile"}) == []
    assert check.problems({"name": "émile"}) == [f"name: 'émile' does not match {pattern!r}"]


def test_every_problem_is_listed_in_path_order(validation: ModuleType) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["c"],
    }
    assert validation.SchemaCheck(schema).problems({"a": "x", "b": 1}) == [
        "'c' is a required property",
        "a: 'x' is not of type 'integer'",
        "b: 1 is not of type 'string'",
    ]
