"""jsonschema-rs settles a manifest's schema checks only where python jsonschema agrees.

`fast_verdict` may only ever say "accepted" where the reference validator accepts too (a
rejection goes to the reference, which words it), so each test here draws schemas, manifests
and arguments, valid and one change away from valid, and demands that every acceptance is
the reference's. On the unchanged corpus the two must agree exactly: a fast path that
rejected what is valid would load jsonschema on every run for nothing.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import jsonschema_specifications
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators

from mcpgen.manifest import fast_verdict
from mcpgen.manifest.ecma_regex import with_ecma_regex
from mcpgen.manifest.load import load_yaml
from mcpgen.manifest.tool_schema import (
    DIALECTS,
    _metaschema_validator,
    check_tool_schema,
    dialect_of,
    reference_class,
)
from mcpgen.manifest.validate import manifest_json_schema_text
from mcpgen.runtime.testing.schema_cases import cases
from tests.support.corpus import manifest_files, real_files

REPO = Path(__file__).resolve().parents[2]
DRAFTS = sorted(set(DIALECTS.values()))
# Values a schema keyword or a manifest key may wrongly hold (1.0: an integer to some drafts).
ODD_VALUES: tuple[Any, ...] = (None, True, 0, -1, 1.0, 1.5, "", "x", "a\n", [], ["a", "a"], {})


def _manifests() -> list[Path]:
    paths = manifest_files()
    paths += sorted((REPO / "examples").glob("*/mcpgen.yaml"))
    paths += sorted((REPO / "tests" / "golden" / "errors").glob("*.yaml"))
    return paths


@cache
def manifest_data() -> tuple[tuple[str, Any], ...]:
    found = []
    for path in _manifests():
        loaded = load_yaml(path.read_text(encoding="utf-8"), path.name)
        if loaded.data is not None:
            found.append((f"{path.parent.name}/{path.stem}", loaded.data))
    return tuple(found)


@cache
def tool_schemas() -> tuple[tuple[str, dict[str, Any]], ...]:
    found = []
    for path in real_files():
        for tool in json.loads(path.read_text(encoding="utf-8")):
            for key in ("inputSchema", "outputSchema"):
                if isinstance(tool.get(key), dict):
                    found.append((f"{path.stem}:{tool['name']}:{key}", tool[key]))
    for name, data in manifest_data():
        tools = data.get("tools") if isinstance(data, dict) else None
        for index, tool in enumerate(tools if isinstance(tools, list) else []):
            for key in ("input_schema", "inputSchema", "output_schema", "outputSchema"):
                if isinstance(tool, dict) and isinstance(tool.get(key), dict):
                    found.append((f"{name}:{index}:{key}", tool[key]))
    return tuple(found)


def _one_change(value: Any, limit: int = 40) -> Iterator[Any]:
    """Copies of a JSON document with one value replaced or one key removed, at every place
    down to a few levels, at most `limit` of them."""
    count = 0
    stack: list[tuple[Any, ...]] = [()]
    while stack and count < limit:
        path = stack.pop(0)
        here: Any = value
        for step in path:
            here = here[step]
        children = list(here.items()) if isinstance(here, dict) else list(enumerate(here))
        for key, child in children:
            if isinstance(child, dict | list) and len(path) < 4:
                stack.append((*path, key))
            for odd in (*ODD_VALUES, None):
                changed = copy.deepcopy(value)
                target = changed
                for step in path:
                    target = target[step]
                if odd is None and isinstance(target, dict):
                    del target[key]
                else:
                    target[key] = odd
                count += 1
                yield changed


def reference_meets_metaschema(draft: str, schema: Any) -> bool:
    return bool(_metaschema_validator(draft).is_valid(schema))


def test_dialect_uris_are_the_references() -> None:
    for draft in DRAFTS:
        meta = reference_class(draft).META_SCHEMA
        uri = meta.get("$id") or meta["id"]
        assert DIALECTS[uri.rstrip("#").replace("https://", "http://", 1)] == draft
        assert dialect_of({"$schema": uri}) == draft


def test_metaschemas_are_the_references() -> None:
    """jsonschema-rs judges with the reference's metaschema documents; the 2019-09 and 2020-12
    vocabularies are its built-in copies, which must be the same documents."""
    for draft in DRAFTS:
        assert fast_verdict.reference_metaschema(draft) == reference_class(draft).META_SCHEMA
    vocabularies = [uri for uri in jsonschema_specifications.REGISTRY if "/meta/" in uri]
    assert len(vocabularies) >= 14
    for uri in vocabularies:
        dialect = uri.split("/meta/")[0] + "/schema"
        bundled = jsonschema_rs.bundle({"$schema": dialect, "$ref": uri})
        copies = [d for d in bundled["$defs"].values() if d.get("$id") == uri]
        assert copies == [jsonschema_specifications.REGISTRY[uri].contents], uri


@pytest.mark.parametrize("draft", DRAFTS)
def test_metaschema_verdicts_on_the_corpus_are_the_references(draft: str) -> None:
    for name, schema in tool_schemas():
        pieces = [schema, *schema.get("properties", {}).values(), *schema.get("$defs", {}).values()]
        for piece in pieces:
            expected = reference_meets_metaschema(draft, piece)
            assert fast_verdict.meets_metaschema(draft, piece) == expected, (name, piece)


@pytest.mark.parametrize("draft", DRAFTS)
def test_metaschema_acceptance_one_change_away_is_the_references(draft: str) -> None:
    extra = [
        {"enum": []},
        {"$anchor": "a\n"},
        {"minLength": 1.0},
        {"exclusiveMinimum": True},
        {"required": ["a", "a"]},
        {"type": ["string", "string"]},
        {"pattern": "(?<=a)b"},
        {"pattern": "["},
        {"maxLength": 2**70},
        {"items": [{"type": "string"}], "additionalItems": {"type": 1}},
        {"dependencies": {"a": ["b", "b"]}},
        {"format": 3},
        {"$schema": 3},
    ]
    accepted = 0
    # Every third corpus schema: the reference is slow on the 2019-09 and 2020-12 metaschemas.
    sample = [*tool_schemas()[::3], *(("extra", e) for e in extra)]
    for name, schema in sample:
        for changed in [schema, *_one_change(schema, limit=15)]:
            if fast_verdict.meets_metaschema(draft, changed):
                accepted += 1
                assert reference_meets_metaschema(draft, changed), (name, changed)
    assert accepted > 0


def test_manifest_verdicts_are_the_references() -> None:
    reference = Draft202012Validator(json.loads(manifest_json_schema_text()))
    text = manifest_json_schema_text()
    agreed = 0
    for name, data in manifest_data():
        assert fast_verdict.manifest_accepts(text, data) == reference.is_valid(data), name
        for changed in _one_change(data, limit=300):
            if fast_verdict.manifest_accepts(text, changed):
                assert reference.is_valid(changed), (name, changed)
                agreed += 1
    assert agreed > 0


@cache
def _argument_judges(key: str) -> tuple[Any, st.SearchStrategy[Any]]:
    schema = json.loads(key)
    cls = reference_class(dialect_of(schema) or "draft202012")
    return with_ecma_regex(cls)(schema), cases(schema)


def _input_schemas() -> list[Any]:
    """The input schemas whose examples validation checks: those without problems."""
    return [
        pytest.param(schema, id=name)
        for name, schema in tool_schemas()
        if name.endswith(("inputSchema", "input_schema")) and not check_tool_schema(schema, "input")
    ]


@pytest.mark.parametrize("schema", _input_schemas())
@settings(max_examples=2, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_argument_acceptance_is_the_references(schema: dict[str, Any], data: st.DataObject) -> None:
    reference, strategy = _argument_judges(json.dumps(schema, sort_keys=True))
    case = data.draw(strategy)
    draft = dialect_of(schema) or "draft202012"
    if fast_verdict.arguments_accept(schema, draft, case.instance):
        assert reference.is_valid(case.instance), case


def test_argument_verdicts_leave_pattern_properties_to_the_reference() -> None:
    schema = {"type": "object", "patternProperties": {"^a": {"type": "string"}}}
    assert not fast_verdict.arguments_accept(schema, "draft202012", {"ab": "x"})
    assert fast_verdict.arguments_accept({"type": "object"}, "draft202012", {"ab": "x"})


def test_argument_verdicts_match_patterns_as_ecma_262() -> None:
    # Python's `\d` matches Arabic-Indic digits, ECMA-262's (and the reference's) does not.
    schema = {"type": "string", "pattern": "^\\d+$"}
    assert fast_verdict.arguments_accept(schema, "draft202012", "123")
    assert not fast_verdict.arguments_accept(schema, "draft202012", "\u0661\u0662")
    reference = with_ecma_regex(validators.Draft202012Validator)(schema)
    assert not reference.is_valid("\u0661\u0662")


def test_nothing_is_fetched() -> None:
    schema = {"$ref": "https://example.com/schema.json"}
    assert not fast_verdict.arguments_accept(schema, "draft202012", 1)
