"""The runtime's verdicts: jsonschema-rs and the ECMA-262 reference agree on the corpus
(`judges.jsonschema_rs`, `judges.schema_check`: a sample from every source, all of it in a full
run), and every disagreement or failure refuses the instance with reasons (fail closed)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mcpgen.render.invalid import invalid_arguments
from mcpgen.runtime.validation import schema_check as validation
from mcpgen.runtime.validation.schema_check import SchemaCheck, json_path
from tests.differential import judges
from tests.differential.corpus_cases import served_input_schemas
from tests.differential.corpus_sample import params, per_source_and_keyword

ARABIC_INDIC_ONE = "\u0661"  # a digit to Python's `\d`, not to ECMA-262's
SAMPLES: list[Any] = [
    "x",
    "",
    "Émile",
    ARABIC_INDIC_ONE,
    0,
    -1,
    1.5,
    True,
    None,
    [],
    ["a"],
    {},
    {"a": 1},
]
DIGIT_KEYS = {
    "type": "object",
    "patternProperties": {"^\\d+$": {"type": "string"}},
    "additionalProperties": False,
}


def instances(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield {}
    wrong = invalid_arguments(schema)
    if wrong is not None:
        yield wrong
    for name in schema.get("properties") or {}:
        for value in SAMPLES:
            yield {name: value}


@pytest.mark.parametrize("schema", params(per_source_and_keyword(served_input_schemas(), 4)))
def test_fast_and_reference_verdicts_agree(schema: dict[str, Any]) -> None:
    for instance in instances(schema):
        verdicts = judges.schema_check(schema, instance)
        assert verdicts.agree(), verdicts
        fast = judges.jsonschema_rs(schema, instance)
        assert fast is None or fast.agree(), fast


def test_patterns_are_ecma_262() -> None:
    pattern = "^\\p{Lu}\\p{Ll}+$"
    check = SchemaCheck(
        {"type": "object", "properties": {"name": {"type": "string", "pattern": pattern}}}
    )
    assert check.problems({"name": "Émile"}) == []
    assert check.problems({"name": "émile"}) == [f"$.name: 'émile' does not match {pattern!r}"]


def test_every_problem_is_listed_in_path_order() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["c"],
    }
    assert SchemaCheck(schema).problems({"a": "x", "b": 1}) == [
        "$: 'c' is a required property",
        "$.a: 'x' is not of type 'integer'",
        "$.b: 1 is not of type 'string'",
    ]


def test_unicode_digit_key_is_not_matched_by_backslash_d() -> None:
    check = SchemaCheck(DIGIT_KEYS)
    assert check.problems({"12": "x"}) == []
    assert check.problems({ARABIC_INDIC_ONE: "x"}) == [
        f"$: Additional properties are not allowed ('{ARABIC_INDIC_ONE}' was unexpected)"
    ]


def test_unicode_property_escape_in_pattern_properties_is_a_verdict() -> None:
    schema = {
        "type": "object",
        "patternProperties": {"^\\p{L}+$": {"type": "integer"}},
        "additionalProperties": False,
    }
    check = SchemaCheck(schema)
    assert check.problems({"Ωμέγα": 1}) == []
    assert check.problems({"Ωμέγα": "x"}) == ["$.Ωμέγα: 'x' is not of type 'integer'"]
    assert check.problems({"a1": 1}) == [
        "$: Additional properties are not allowed ('a1' was unexpected)"
    ]


UNEVALUATED_DIGIT_KEYS = {
    "type": "object",
    "allOf": [{"$ref": "#/$defs/digits"}],
    "unevaluatedProperties": False,
    "$defs": {"digits": {"patternProperties": {"^\\d+$": {}, "^\\w$": {}}}},
}


@pytest.mark.parametrize(
    ("key", "why"),
    [
        (ARABIC_INDIC_ONE, "a digit to Python's \\d only"),
        ("1\n", "Python's $ matches before a final newline"),
        ("\u00e9", "a word character to Python's \\w only"),
    ],
)
@pytest.mark.parametrize("draft", ["2020-12", "2019-09"])
def test_unevaluated_properties_see_pattern_properties_as_ecma_262(
    key: str, why: str, draft: str
) -> None:
    schema = {"$schema": f"https://json-schema.org/draft/{draft}/schema", **UNEVALUATED_DIGIT_KEYS}
    check = SchemaCheck(schema)
    assert check.problems({"12": 1, "a": 2}) == []
    assert check.problems({key: 1}) == [
        f"$: Unevaluated properties are not allowed ({key!r} was unexpected)"
    ], why


def test_unevaluated_properties_read_a_pattern_python_cannot() -> None:
    schema = {"type": "object", "patternProperties": {"^\\p{L}+$": {}}}
    check = SchemaCheck({**schema, "unevaluatedProperties": False})
    assert check.problems({"\u03a9": 1}) == []
    assert check.problems({"1": 1}) != []


def test_unevaluated_properties_are_no_keyword_before_2019() -> None:
    draft_7 = "http://json-schema.org/draft-07/schema#"
    schema = {"$schema": draft_7, "patternProperties": {"^a$": {}}, "unevaluatedProperties": False}
    assert SchemaCheck(schema).problems({"b": 1}) == []


def test_a_pattern_only_legacy_mode_compiles_is_honoured() -> None:
    # `\_` is an identity escape JavaScript accepts outside Unicode mode (zod emits it).
    check = SchemaCheck({"type": "string", "pattern": "^a\\_b$"})
    assert check.problems("a_b") == []
    assert check.problems("ab") != []


@pytest.mark.parametrize(
    ("draft", "valid"),
    [
        ("http://json-schema.org/draft-04/schema#", False),
        ("https://json-schema.org/draft/2020-12/schema", True),
    ],
)
def test_the_schema_draft_is_honoured(draft: str, valid: bool) -> None:
    # draft-04's exclusiveMaximum is a boolean modifier of maximum; 2020-12's is a number.
    schema: dict[str, Any] = {"$schema": draft, "type": "number", "maximum": 5}
    schema["exclusiveMaximum"] = True if "draft-04" in draft else 6
    assert (SchemaCheck(schema).problems(5) == []) is valid


def test_engines_disagreeing_refuse_with_the_fast_engine_reasons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `multipleOf` is not plain: jsonschema-rs judges this one.
    check = SchemaCheck(
        {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 1}}}
    )
    monkeypatch.setattr(check, "reference_problems", lambda instance: [])
    assert check.problems({"n": "x"}) == ['$.n: "x" is not of type "integer"']


def test_a_plain_verdict_the_reference_contradicts_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check = SchemaCheck({"type": "object", "properties": {"n": {"type": "integer"}}})
    assert check._fast is None, "a plain schema needs no engine"
    monkeypatch.setattr(check, "reference_problems", lambda instance: [])
    assert check.problems({"n": "x"}) == ["$: refused: the validators disagree on these arguments"]
    assert check.problems({"n": 1}) == []


def test_an_engine_raising_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    check = SchemaCheck({"type": "object", "patternProperties": {"^a": {}}})

    def broken(instance: Any) -> list[str]:
        raise RecursionError("too deep")

    monkeypatch.setattr(check, "reference_problems", broken)
    assert check.problems({"a": 1}) == ["$: could not be checked (RecursionError: too deep)"]


def test_a_schema_jsonschema_rs_cannot_compile_is_judged_by_the_reference() -> None:
    assert validation._fast_validator({"type": "object", "patternProperties": {"^a": {}}}) is None
    assert validation._fast_validator({"type": 12}) is None
    assert SchemaCheck({"type": "string", "minLength": 2}).problems("a") == ["$: 'a' is too short"]


@pytest.mark.parametrize(
    ("parts", "path"),
    [
        ([], "$"),
        (["a", 0, "b_c"], "$.a[0].b_c"),
        (["item-count"], "$.item-count"),
        (["a b"], "$['a b']"),
        (["1"], "$['1']"),
    ],
)
def test_json_path(parts: list[str | int], path: str) -> None:
    assert json_path(parts) == path
