"""`plain_schema` judges exactly as the reference (python `jsonschema`) and jsonschema-rs on
every schema it accepts to compile, and refuses to compile everything else
(`judges.plain_closure`, and `judges.schema_check` for the runtime's verdict built on it).

The schemas: the tool input schemas of the corpus and the examples that are plain (a sample
from every source, all of them in a full run), plus hand-written ones at the edges. The
instances: hypothesis draws (valid ones and one mutation away, `schema_cases`) and a fixed
list of values the engines are known to differ on (1.0 as an integer, booleans as numbers,
NaN, astral characters in a length, huge integers).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcpgen.runtime.testing.schema_cases import cases
from mcpgen.runtime.validation.plain_schema import compile_plain
from mcpgen.runtime.validation.regex_worker import InvalidPattern
from tests.differential import judges
from tests.differential.corpus_cases import served_input_schemas
from tests.differential.corpus_sample import SEARCH, params, per_source_and_keyword
from tests.support import sweep

REPO = Path(__file__).resolve().parents[2]
EDGE_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    1.0,
    1.5,
    -0.0,
    2**70,
    float(2**70),
    math.nan,
    math.inf,
    -math.inf,
    "",
    "a",
    "é",
    "😀😀",
    "\ud800",
    [],
    [1, "a", None],
    {},
    {"a": 1},
    {"city": "Paris", "days": 1.0},
    {"city": "Paris", "days": True},
    {"city": "😀", "extra": None},
]

PLAIN = [
    {"type": "integer", "minimum": 1, "maximum": 7},
    {"type": ["integer", "null"], "exclusiveMinimum": 0},
    {"type": "number", "exclusiveMaximum": 1.5},
    {"type": "string", "minLength": 2, "maxLength": 2},
    {"enum": ["a", "b", None]},
    {"const": "x"},
    {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2},
    {"type": "object", "minProperties": 1, "maxProperties": 1},
    {"properties": {"a": False}, "additionalProperties": {"type": "integer"}},
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer"}},
        "required": ["city"],
        "additionalProperties": False,
    },
    True,
    False,
    {},
]

NOT_PLAIN = [
    {"enum": [1, 2]},
    {"const": 1},
    {"$ref": "#/$defs/x", "$defs": {"x": {}}},
    {"anyOf": [{"type": "string"}]},
    {"type": "object", "patternProperties": {"^x": {}}},
    {"items": [{"type": "string"}]},
    {"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"},
    {"type": "integer", "multipleOf": 0.1},
    {"type": "strnig"},
    {"maxLength": -1},
    {"minimum": True},
    {"pattern": 1},
    {"x-vendor": 1},
]


def _agree(schema: Any, instance: Any) -> None:
    verdicts = judges.plain_closure(schema, instance)
    assert verdicts.agree(), verdicts
    if isinstance(schema, dict):
        verdicts = judges.schema_check(schema, instance)
        assert verdicts.agree(), verdicts


@pytest.mark.parametrize("schema", PLAIN, ids=lambda s: json.dumps(s)[:60])
@pytest.mark.parametrize("instance", EDGE_VALUES, ids=repr)
def test_edge_values(schema: Any, instance: Any) -> None:
    _agree(schema, instance)


@pytest.mark.parametrize("schema", NOT_PLAIN, ids=lambda s: json.dumps(s)[:60])
def test_anything_else_is_left_to_the_engines(schema: Any) -> None:
    assert compile_plain(schema) is None


PLAIN_CORPUS = [c for c in served_input_schemas() if compile_plain(c.schema) is not None]


def test_most_real_schemas_are_plain() -> None:
    """So that the corpus differential below has something to judge."""
    assert len(PLAIN_CORPUS) >= 100


@pytest.mark.parametrize("schema", params(per_source_and_keyword(PLAIN_CORPUS, 2)))
@settings(SEARCH, max_examples=sweep.examples(3, 10))
@given(data=st.data())
def test_corpus_verdicts(schema: dict[str, Any], data: st.DataObject) -> None:
    case = data.draw(cases(schema))
    _agree(schema, case.instance)
    for value in EDGE_VALUES:
        _agree(schema, value)


def _loaded_after(schema: dict[str, Any], instance: Any, before: str = "") -> set[str]:
    script = (
        "import json, sys\n"
        + before
        + "from mcpgen.runtime.validation.schema_check import SchemaCheck\n"
        f"check = SchemaCheck(json.loads({json.dumps(json.dumps(schema))}))\n"
        f"check.problems(json.loads({json.dumps(json.dumps(instance))}))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=REPO
    )
    return set(json.loads(done.stdout))


NATIVE = {"jsonschema_rs", "regress", "re2", "jsonschema"}


def test_a_plain_schema_loads_no_engine() -> None:
    """The weather tool's schema, judged valid: no JSON Schema engine, no regex engine."""
    schema = PLAIN[9]
    assert isinstance(schema, dict)
    assert not NATIVE & _loaded_after(schema, {"city": "Paris"})


def test_a_schema_with_a_pattern_loads_its_regex_engines_only() -> None:
    """RE2 to match, regress to check the pattern compiles: no JSON Schema engine."""
    loaded = _loaded_after({"type": "string", "pattern": "^a+$"}, "aaa")
    assert {"re2", "regress"} <= loaded
    assert not {"jsonschema_rs", "jsonschema"} & loaded


def test_a_pattern_the_rendered_code_declares_valid_loads_no_regress() -> None:
    """A generated tool table declares its patterns (mcpgen compiled them): RE2 alone."""
    declared = "from mcpgen.runtime.validation.regex_worker import declare_valid\n"
    declared += "declare_valid(['^a+$'])\n"
    loaded = _loaded_after({"type": "string", "pattern": "^a+$"}, "aaa", before=declared)
    assert "re2" in loaded
    assert not {"regress", "jsonschema_rs", "jsonschema"} & loaded


@pytest.mark.parametrize(
    ("schema", "instance", "valid"),
    [
        ({"type": "string", "pattern": "^a"}, "abc", True),
        ({"type": "string", "pattern": "^a"}, "cba", False),
        ({"pattern": "^a"}, 12, True),  # a pattern judges strings only
        ({"properties": {"a": {"pattern": "x"}}}, {"a": "yxy"}, True),
        ({"properties": {"a": {"pattern": "x"}}}, {"a": "yyy"}, False),
        ({"pattern": "^(a)\\1$"}, "aa", True),  # a back-reference: the child process judges
        ({"pattern": "^(a)\\1$"}, "ab", False),
        ({"pattern": "\\p{Lu}"}, "\u00e9\u00c9", True),
    ],
)
def test_patterns_are_plain_and_judged_as_the_engines_judge(
    schema: dict[str, Any], instance: Any, valid: bool
) -> None:
    assert compile_plain(schema) is not None
    _agree(schema, instance)
    assert (judges.schema_check(schema, instance).answers["SchemaCheck"] == []) is valid


def test_an_invalid_pattern_fails_the_build() -> None:
    with pytest.raises(InvalidPattern):
        compile_plain({"pattern": "("})
