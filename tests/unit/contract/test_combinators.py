"""Schemas combined part by part (`allOf: [$ref, {properties: ...}]`, as OpenAPI responses
are): a change inside a part is judged where it stands, not as one opaque keyword."""

from __future__ import annotations

from typing import Any

from mcpgen.contract.schemas import input_findings, output_findings


def _station(name_type: str) -> dict[str, Any]:
    return {
        "allOf": [
            {"type": "object", "properties": {"id": {"type": "string"}}},
            {
                "properties": {
                    "data": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"name": {"type": name_type}}},
                    }
                }
            },
        ]
    }


def test_a_result_fields_type_changed_inside_all_of_breaks_clients() -> None:
    found = output_findings(_station("string"), _station("integer"))
    assert [f.breaking for f in found] == [True]
    assert "data[].name" in found[0].text and "string to integer" in found[0].text


def test_an_argument_narrowed_inside_any_of_breaks_clients() -> None:
    old = {"anyOf": [{"type": "string"}, {"type": "integer", "maximum": 10}]}
    new = {"anyOf": [{"type": "string"}, {"type": "integer", "maximum": 5}]}
    found = input_findings(old, new)
    assert [f.breaking for f in found] == [True] and "maximum 10 → 5" in found[0].text


def test_parts_added_or_removed_stay_one_change_judged_whole() -> None:
    old = {"allOf": [{"type": "object"}]}
    new = {"allOf": [{"type": "object"}, {"required": ["id"]}]}
    found = input_findings(old, new)
    assert len(found) == 1 and "allOf" in found[0].text and found[0].breaking
