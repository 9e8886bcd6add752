"""Which schema changes break an existing handler, in plain words."""

from __future__ import annotations

from typing import Any

from mcpgen.sync.schema_diff import input_changes, output_changes


def obj(required: tuple[str, ...] = (), **properties: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


STR, INT = {"type": "string"}, {"type": "integer"}


def _texts(changes: list[Any]) -> list[tuple[str, bool]]:
    return [(c.text, c.breaking) for c in changes]


def test_required_field_added_breaks() -> None:
    assert _texts(input_changes(obj(a=STR), obj(("b",), a=STR, b=INT))) == [
        ("argument `b` added, required", True)
    ]


def test_optional_field_added_does_not_break() -> None:
    assert _texts(input_changes(obj(a=STR), obj(a=STR, b=INT))) == [
        ("argument `b` added, optional", False)
    ]


def test_type_change_and_removal_break() -> None:
    changes = _texts(input_changes(obj(a=STR, b=STR), obj(a=INT)))
    assert ("argument `b` removed", True) in changes
    assert ("argument `a` changed type from string to integer", True) in changes


def test_existing_field_made_required_breaks_made_optional_without_default_breaks() -> None:
    assert _texts(input_changes(obj(a=STR), obj(("a",), a=STR)))[0][1] is True
    loosened = _texts(input_changes(obj(("a",), a=STR), obj(a=STR)))
    assert loosened == [("argument `a` is now optional: the handler may receive None", True)]
    defaulted = input_changes(obj(("a",), a=STR), obj(a={"type": "string", "default": "x"}))
    assert [c.breaking for c in defaulted] == [False, False]  # optional with default + constraint


def test_description_only_change_does_not_break() -> None:
    old = obj(a={"type": "string", "description": "old"})
    new = obj(a={"type": "string", "description": "new"})
    assert _texts(input_changes(old, new)) == [("argument `a`: description changed", False)]
    assert input_changes(old, old) == []


def test_constraint_change_does_not_break() -> None:
    old, new = obj(a={"type": "string"}), obj(a={"type": "string", "maxLength": 3})
    assert _texts(input_changes(old, new)) == [("argument `a`: constraints changed", False)]


def test_nested_objects_and_arrays_are_followed() -> None:
    old = obj(loc=obj(lat=INT), tags={"type": "array", "items": STR})
    new = obj(loc=obj(lat={"type": "number"}), tags={"type": "array", "items": INT})
    changes = _texts(input_changes(old, new))
    assert ("argument `loc.lat` changed type from integer to number", True) in changes
    assert ("argument `tags[]` changed type from string to integer", True) in changes


def test_output_schema_rules() -> None:
    assert output_changes(None, None) == []
    assert output_changes(None, obj(t=INT))[0].breaking
    assert output_changes(obj(t=INT), None)[0].breaking  # the stub imports the output model
    assert _texts(output_changes(obj(t=INT), obj(("u",), t=INT, u=STR))) == [
        ("result field `u` added, required: the handler must return it", True)
    ]
    assert _texts(output_changes(obj(t=INT, u=STR), obj(t=INT))) == [
        ("result field `u` removed", False)
    ]
    closed = {**obj(t=INT), "additionalProperties": False}
    assert _texts(output_changes(obj(t=INT, u=STR), closed)) == [("result field `u` removed", True)]
    assert output_changes(obj(t=INT), obj(t=STR))[0].breaking
