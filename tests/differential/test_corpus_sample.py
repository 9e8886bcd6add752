"""The sample a run judges still reaches every server and every keyword of the corpus."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from tests.differential.corpus_cases import ToolSchema, served_input_schemas, written_schemas
from tests.differential.corpus_sample import keywords, per_source, per_source_and_keyword
from tests.support import sweep


@pytest.mark.parametrize("corpus", [served_input_schemas, written_schemas])
def test_a_sample_holds_every_source_and_keyword(
    corpus: Callable[[], Sequence[ToolSchema]],
) -> None:
    cases = corpus()
    drawn = per_source_and_keyword(cases, 1)
    assert {case.source for case in drawn} == {case.source for case in cases}
    used = set().union(*(keywords(case.schema) for case in cases))
    assert set().union(*(keywords(case.schema) for case in drawn)) == used
    assert len(drawn) < len(cases) or sweep.full_run()


def test_a_full_run_judges_every_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sweep.FULL_ENV, "1")
    assert per_source(written_schemas(), 1) == list(written_schemas())


def test_the_keywords_of_a_schema_are_its_verdict_keywords() -> None:
    schema = {
        "type": "object",
        "properties": {"type": {"enum": [{"minimum": 1}]}, "b": {"items": {"pattern": "^a"}}},
        "$defs": {"if": {"const": {"not": 1}}},
        "description": "maximum",
    }
    assert keywords(schema) == {"type", "properties", "enum", "items", "pattern", "$defs", "const"}
