"""jsonschema-rs settles a manifest's schema checks only where python jsonschema agrees.

`fast_verdict` may only ever say "accepted" where the reference validator accepts too (a
rejection goes to the reference, which words it), so each test here draws schemas, manifests
and arguments, valid and one change away from valid, and demands that every acceptance is
the reference's (`judges.fast_*`). On the unchanged corpus the two must agree exactly: a fast
path that rejected what is valid would load jsonschema on every run for nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import jsonschema_specifications  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import validators

from mcpgen.manifest import fast_verdict
from mcpgen.manifest.ecma_regex import with_ecma_regex
from mcpgen.manifest.tool_schema import DIALECTS, check_tool_schema, dialect_of, reference_class
from mcpgen.runtime.testing.schema_cases import cases
from tests.differential import judges
from tests.differential.corpus_cases import manifests, written_schemas
from tests.differential.corpus_sample import SEARCH, params, per_source_and_keyword
from tests.support import sweep

DRAFTS = sorted(set(DIALECTS.values()))
# Values a schema keyword or a manifest key may wrongly hold (1.0: an integer to some drafts).
ODD_VALUES: tuple[Any, ...] = (None, True, 0, -1, 1.0, 1.5, "", "x", "a\n", [], ["a", "a"], {})
# Schemas one keyword away from valid, beside the corpus's.
BROKEN_SCHEMAS = [
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
SCHEMAS = params(per_source_and_keyword(written_schemas(), 2))
INPUT_SCHEMAS = params(
    per_source_and_keyword(
        [c for c in written_schemas() if c.is_input and not check_tool_schema(c.schema, "input")],
        2,
    )
)


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


@pytest.mark.parametrize("schema", SCHEMAS)
def test_metaschema_verdicts_on_the_corpus_are_the_references(schema: dict[str, Any]) -> None:
    pieces = [schema, *schema.get("properties", {}).values(), *schema.get("$defs", {}).values()]
    for draft in DRAFTS:
        for piece in pieces:
            verdicts = judges.fast_metaschema(draft, piece)
            assert verdicts.agree(), verdicts


@pytest.mark.parametrize(
    "schema", [*SCHEMAS, *(pytest.param(s, id=f"broken:{s}") for s in BROKEN_SCHEMAS)]
)
def test_metaschema_acceptance_one_change_away_is_the_references(schema: dict[str, Any]) -> None:
    for changed in [schema, *_one_change(schema, limit=15)]:
        for draft in DRAFTS:
            verdicts = judges.fast_metaschema(draft, changed)
            assert verdicts.sound(), verdicts


@pytest.mark.parametrize("manifest", manifests(), ids=lambda m: m.id)
def test_manifest_verdicts_are_the_references(manifest: Any) -> None:
    verdicts = judges.fast_manifest(manifest.data)
    assert verdicts.agree(), verdicts
    for changed in _one_change(manifest.data, limit=sweep.rounds(60, 300)):
        verdicts = judges.fast_manifest(changed)
        assert verdicts.sound(), verdicts


@pytest.mark.parametrize("schema", INPUT_SCHEMAS)
@settings(SEARCH, max_examples=sweep.examples(2, 5))
@given(data=st.data())
def test_argument_acceptance_is_the_references(schema: dict[str, Any], data: st.DataObject) -> None:
    case = data.draw(cases(schema))
    verdicts = judges.fast_arguments(schema, case.instance)
    assert verdicts.sound(), (case.category, verdicts)


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
