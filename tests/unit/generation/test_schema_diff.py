"""Which schema changes break an existing handler, in plain words."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgen.generation.schema_diff import input_changes, output_changes


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
    ((text, breaking),) = _texts(output_changes(obj(t=INT, u=STR), closed))
    assert text.startswith("result field `u` removed: the object allows no other field")
    assert breaking
    assert output_changes(obj(t=INT), obj(t=STR))[0].breaking


NUM, NULL = {"type": "number"}, {"type": "null"}
STR_OR_NULL = {"type": ["string", "null"]}
ENUM_AB, ENUM_ABC = {"enum": ["a", "b"]}, {"enum": ["a", "b", "c"]}
OBJ = obj(x=INT)

# (old field schema, new field schema, breaks a handler's input, breaks a handler's output).
# A handler receives inputs: a wider type brings values its code never saw, a narrower one
# only values it handles. It produces outputs: a wider type still holds what it returns, a
# narrower one may refuse it.
FIELD_CHANGES = [
    pytest.param(INT, NUM, True, False, id="integer -> number"),
    pytest.param(NUM, INT, False, True, id="number -> integer"),
    pytest.param(STR, STR_OR_NULL, True, False, id="string -> string|null"),
    pytest.param(STR_OR_NULL, STR, False, True, id="string|null -> string"),
    pytest.param(STR, {"anyOf": [STR, INT]}, True, False, id="string -> anyOf string,int"),
    pytest.param({"anyOf": [STR, INT]}, STR, False, True, id="anyOf string,int -> string"),
    pytest.param(STR, {}, True, False, id="string -> any"),
    pytest.param({}, STR, False, True, id="any -> string"),
    pytest.param(ENUM_AB, STR, True, False, id="enum -> string"),
    pytest.param(STR, ENUM_AB, False, True, id="string -> enum"),
    pytest.param(ENUM_AB, ENUM_ABC, True, False, id="enum gains a value"),
    pytest.param(ENUM_ABC, ENUM_AB, False, True, id="enum loses a value"),
    pytest.param({"const": 1}, INT, True, False, id="const -> integer"),
    pytest.param(STR, INT, True, True, id="string -> integer"),
    pytest.param(OBJ, {"anyOf": [OBJ, NULL]}, True, False, id="object -> object|null"),
    pytest.param(STR, {"$ref": "#/$defs/X"}, True, True, id="string -> $ref"),
    pytest.param(
        {"type": "array", "items": INT}, {"type": "array", "items": NUM}, True, False, id="items"
    ),
    pytest.param(obj(y=INT), obj(y=NUM), True, False, id="nested field widened"),
    pytest.param(STR, {"type": "string", "maxLength": 3}, False, False, id="constraint"),
]


@pytest.mark.parametrize(("old", "new", "breaks_input", "breaks_output"), FIELD_CHANGES)
def test_a_field_change_breaks_the_side_it_narrows_for_the_handler(
    old: dict[str, Any], new: dict[str, Any], breaks_input: bool, breaks_output: bool
) -> None:
    inputs = input_changes(obj(("f",), f=old), obj(("f",), f=new))
    outputs = output_changes(obj(("f",), f=old), obj(("f",), f=new))
    assert inputs and outputs
    assert any(c.breaking for c in inputs) is breaks_input, _texts(inputs)
    assert any(c.breaking for c in outputs) is breaks_output, _texts(outputs)


# (old output schema, new output schema, breaks the handler)
RESULT_CHANGES = [
    pytest.param(obj(t=INT, u=STR), obj(t=INT), False, id="open object: field removed"),
    pytest.param(obj(("u",), t=INT, u=STR), obj(t=INT), False, id="required field removed"),
    pytest.param(obj(("t",), t=INT), obj(t=INT), False, id="field made optional"),
    pytest.param(obj(t=INT), obj(("t",), t=INT), True, id="field made required"),
    pytest.param(obj(t=INT), obj(("u",), t=INT, u=STR), True, id="required field added"),
    pytest.param(obj(t=INT), obj(t=INT, u=STR), False, id="optional field added"),
    pytest.param(OBJ, {"anyOf": [OBJ, NULL]}, False, id="result widened to object|null"),
    pytest.param({"anyOf": [OBJ, NULL]}, OBJ, True, id="result narrowed to object"),
    pytest.param(
        {**obj(t=INT, u=STR), "additionalProperties": False},
        {**obj(t=INT), "additionalProperties": False},
        True,
        id="closed object: field removed",
    ),
]


@pytest.mark.parametrize(("old", "new", "breaks"), RESULT_CHANGES)
def test_a_result_change_breaks_only_what_the_handler_returns_now(
    old: dict[str, Any], new: dict[str, Any], breaks: bool
) -> None:
    changes = output_changes(old, new)
    assert changes
    assert any(c.breaking for c in changes) is breaks, _texts(changes)


def test_a_wider_result_says_why_it_still_fits() -> None:
    assert _texts(output_changes(obj(t=INT), obj(t=NUM))) == [
        (
            "result field `t` changed type from integer to number (wider: what the handler "
            "returns still fits)",
            False,
        )
    ]
