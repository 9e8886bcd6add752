"""Differential test: the runtime's verdict on generated arguments equals the reference's.

For the tool schemas of the corpus and the examples (a sample from every source, all of them
in a full run), hypothesis draws valid instances (hypothesis-jsonschema) and instances one
mutation away (`schema_cases`). The server side is the runtime's `Dispatcher.admit`
(validation, then the typed model); the reference is python `jsonschema` for the schema's
draft with ECMA-262 regexes (`judges.dispatcher`). A reference that raises means the server
must refuse. Run without xdist, the counts per category are printed at the end.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcpgen.runtime.testing.schema_cases import cases
from tests.differential import judges, tally
from tests.differential.applicator_schemas import array_schemas, arrays, object_schemas, objects
from tests.differential.corpus_cases import served_input_schemas
from tests.differential.corpus_sample import SEARCH, params, per_source_and_keyword
from tests.differential.regex_samples import known_patterns, texts
from tests.support import sweep

SCHEMAS = params(per_source_and_keyword(served_input_schemas(), 2))


@pytest.mark.parametrize("schema", SCHEMAS)
@settings(SEARCH, max_examples=sweep.examples(2, 5))
@given(data=st.data())
def test_server_verdict_equals_reference(schema: dict[str, Any], data: st.DataObject) -> None:
    case = data.draw(cases(schema))
    verdicts = judges.dispatcher(schema, case.instance)
    accepted = verdicts.answers["Dispatcher.admit"]
    tally.JUDGED[case.category, "accepted" if accepted else "refused"] += 1
    if not verdicts.agree():
        tally.DISAGREEMENTS.append(f"{case.category}: {verdicts}")
    assert verdicts.agree(), (case.category, verdicts)


def pattern_schemas() -> list[Any]:
    """Each known pattern as a `pattern` and as a `patternProperties` key."""
    found = []
    for pattern in known_patterns():
        string = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
        keys = {"type": "object", "patternProperties": {pattern: {"type": "integer"}}}
        keyed = {**keys, "additionalProperties": False}
        found.append(pytest.param(string, lambda text: {"s": text}, id=f"pattern:{pattern}"))
        found.append(pytest.param(keyed, lambda text: {text: 1}, id=f"key:{pattern}"))
    return found


@pytest.mark.parametrize(("schema", "instance_of"), pattern_schemas())
@settings(SEARCH, max_examples=sweep.examples(4, 20))
@given(text=texts())
def test_server_verdict_on_tricky_strings_equals_reference(
    schema: dict[str, Any], instance_of: Any, text: str
) -> None:
    """Whitespace, line terminators, other scripts' digits, astral characters: RE2 (or the
    regex child process) must judge exactly as regress does."""
    verdicts = judges.dispatcher(schema, instance_of(text))
    assert verdicts.agree(), verdicts


@settings(SEARCH, max_examples=sweep.examples(50, 300))
@given(schema=object_schemas(), instance=objects())
def test_unevaluated_properties_see_pattern_properties_as_ecma_262(
    schema: dict[str, Any], instance: dict[str, Any]
) -> None:
    """`patternProperties` (and `propertyNames`' patterns) nested in applicators and `$ref`s
    decide which keys `unevaluatedProperties` sees, with ECMA-262's regexes."""
    verdicts = judges.regex_literal(schema, instance)
    assert verdicts.agree(), verdicts


@settings(SEARCH, max_examples=sweep.examples(20, 120))
@given(schema=object_schemas(draft_2019=True), instance=objects())
def test_draft_2019_unevaluated_properties_see_pattern_properties_as_ecma_262(
    schema: dict[str, Any], instance: dict[str, Any]
) -> None:
    verdicts = judges.regex_literal(schema, instance)
    assert verdicts.agree(), verdicts


@settings(SEARCH, max_examples=sweep.examples(50, 300))
@given(schema=array_schemas(), instance=arrays())
def test_unevaluated_items_see_patterns_as_ecma_262(schema: dict[str, Any], instance: Any) -> None:
    """`prefixItems`, `items` and `contains` holding patterns, nested in applicators, decide
    which items `unevaluatedItems` sees, with ECMA-262's regexes."""
    verdicts = judges.regex_literal(schema, instance)
    assert verdicts.agree(), verdicts
