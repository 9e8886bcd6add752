"""What changed between two versions of a tool's schema, and whether it breaks the handler.

A handler reads a typed input model and returns a result that must match the output schema.
So for the input side, anything that can make existing handler code see a value it did not
expect (a field gone, a type widened or changed, a required field it never used) breaks it, and
a narrower type does not; for the output side, anything that the handler's current return value
may no longer satisfy breaks it (a field made required, a narrower type, a field removed from a
closed object, whose model then refuses it), and a wider type or a field removed from an open
object does not (the handler may keep returning it).
Only `properties`/`required`/`items` are followed, in the schema and in each of its `$defs`
(`definitions`), whose classes the handler uses the same way; other keyword changes are
reported as constraint changes, which do not break handler code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from mcpgen.schema.kinds import enum_values as _enum_values
from mcpgen.schema.kinds import widens

Side = Literal["input", "output"]
JSON = dict[str, Any]

# Keywords that document a schema without changing what it accepts.
_ANNOTATIONS = frozenset(
    {"description", "title", "examples", "$comment", "deprecated", "readOnly", "writeOnly"}
)


@dataclass(frozen=True)
class SchemaChange:
    """One difference, in plain words."""

    text: str
    breaking: bool
    # A generated model class goes: that breaks the handler exactly when it imports it, which
    # only its file tells (judged there when the project is at hand, as `mcpgen check` does).
    model_gone: bool = False


def _as_schema(value: Any) -> JSON:
    return value if isinstance(value, dict) else {}


def _type_of(schema: JSON) -> str:
    """A short human name for what a schema accepts, used to spot type changes."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    for combinator in ("oneOf", "anyOf"):
        if isinstance(schema.get(combinator), list):
            kinds = sorted({_type_of(_as_schema(s)) for s in schema[combinator]})
            return " or ".join(kinds)
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(sorted(str(k) for k in kind))
    if kind is None:
        implied = {"enum": "enum", "const": "enum", "properties": "object"}
        kind = next((name for key, name in implied.items() if key in schema), "any")
    return str(kind)


def _without_annotations(schema: JSON) -> str:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in _ANNOTATIONS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return json.dumps(strip(schema), sort_keys=True, default=str)


def _noun(side: Side, name: str) -> str:
    return f"argument `{name}`" if side == "input" else f"result field `{name}`"


class _Differ:
    def __init__(self, side: Side) -> None:
        self.side = side
        self.found: list[SchemaChange] = []

    def add(self, text: str, *, breaking: bool) -> None:
        self.found.append(SchemaChange(text, breaking))

    def objects(self, old: JSON, new: JSON, prefix: str) -> None:
        old_props = _as_schema(old.get("properties"))
        new_props = _as_schema(new.get("properties"))
        old_required = set(old.get("required") or ())
        new_required = set(new.get("required") or ())
        closed = new.get("additionalProperties") is False
        for name in sorted(old_props.keys() - new_props.keys()):
            noun = _noun(self.side, prefix + name)
            # An input field the handler reads is gone; an output field the handler still
            # returns is refused only where extra fields are forbidden (the model forbids them).
            if self.side == "output" and closed:
                why = ": the object allows no other field, so the handler must stop returning it"
                self.add(f"{noun} removed{why}", breaking=True)
            else:
                self.add(f"{noun} removed", breaking=self.side == "input")
        for name in sorted(new_props.keys() - old_props.keys()):
            noun = _noun(self.side, prefix + name)
            if name in new_required:
                why = "" if self.side == "input" else ": the handler must return it"
                self.add(f"{noun} added, required{why}", breaking=True)
            else:
                self.add(f"{noun} added, optional", breaking=False)
        for name in sorted(old_props.keys() & new_props.keys()):
            was, now = name in old_required, name in new_required
            self.required(prefix + name, _as_schema(new_props[name]), was, now)
            self.value(_as_schema(old_props[name]), _as_schema(new_props[name]), prefix + name)

    def required(self, name: str, new: JSON, was: bool, now: bool) -> None:
        noun = _noun(self.side, name)
        if now and not was:
            why = "" if self.side == "input" else ": the handler must always return it"
            self.add(f"{noun} is now required{why}", breaking=True)
        elif was and not now:
            # The handler may now receive None where it always got a value (unless defaulted).
            may_be_missing = self.side == "input" and "default" not in new
            why = ": the handler may receive None" if may_be_missing else ""
            self.add(f"{noun} is now optional{why}", breaking=may_be_missing)

    def type_change(self, old: JSON, new: JSON, noun: str) -> None:
        """The handler takes inputs (a narrower type is safe) and produces outputs (a wider
        type is safe); any other type change breaks it."""
        text = f"{noun} changed type from {_type_of(old)} to {_type_of(new)}"
        if self.side == "output" and widens(old, new):
            self.add(f"{text} (wider: what the handler returns still fits)", breaking=False)
        elif self.side == "input" and widens(new, old):
            self.add(f"{text} (narrower: the handler gets values it handles)", breaking=False)
        else:
            self.add(text, breaking=True)

    def enum_change(self, old: JSON, new: JSON, noun: str) -> None:
        """Allowed values changed: new ones reach a handler's input (its `Literal` type does
        not cover them); an output value dropped is one the handler may still return."""
        before, after = set(_enum_values(old) or ()), set(_enum_values(new) or ())
        added, dropped = sorted(after - before), sorted(before - after)
        if self.side == "input" and added:
            self.add(f"{noun} allows new values {', '.join(added)}", breaking=True)
        elif self.side == "output" and dropped:
            self.add(f"{noun} no longer allows {', '.join(dropped)}", breaking=True)
        else:
            self.add(f"{noun}: allowed values changed", breaking=False)

    def value(self, old: JSON, new: JSON, name: str) -> None:
        if _type_of(old) != _type_of(new):
            self.type_change(old, new, _noun(self.side, name))
        elif "properties" in old or "properties" in new:
            self.objects(old, new, f"{name}.")
        elif isinstance(old.get("items"), dict) and isinstance(new.get("items"), dict):
            self.value(old["items"], new["items"], f"{name}[]")
        elif _enum_values(old) != _enum_values(new) and None not in (
            _enum_values(old),
            _enum_values(new),
        ):
            self.enum_change(old, new, _noun(self.side, name))
        elif _without_annotations(old) != _without_annotations(new):
            self.add(f"{_noun(self.side, name)}: constraints changed", breaking=False)
        elif old != new:
            self.add(f"{_noun(self.side, name)}: description changed", breaking=False)

    def definitions(self, old: JSON, new: JSON) -> None:
        """Changes inside `$defs` / `definitions`: named parts a `$ref` points to."""
        for key in ("$defs", "definitions"):
            old_defs, new_defs = _as_schema(old.get(key)), _as_schema(new.get(key))
            for name in sorted(old_defs.keys() - new_defs.keys()):
                self.found.append(SchemaChange(f"definition `{name}` removed", True, True))
            for name in sorted(new_defs.keys() - old_defs.keys()):
                self.add(f"definition `{name}` added", breaking=False)
            for name in sorted(old_defs.keys() & new_defs.keys()):
                was, now = _as_schema(old_defs[name]), _as_schema(new_defs[name])
                if was != now:
                    self.value(was, now, f"{key}.{name}")


def input_changes(old: JSON, new: JSON) -> list[SchemaChange]:
    """Differences between two input schemas."""
    differ = _Differ("input")
    differ.objects(old, new, "")
    differ.definitions(old, new)
    return differ.found


def output_changes(old: JSON | None, new: JSON | None) -> list[SchemaChange]:
    """Differences between two output schemas (None: the tool declares none)."""
    if old is None and new is None:
        return []
    if old is None:
        text = "now declares an output schema: the handler must return data that matches it"
        return [SchemaChange(text, breaking=True)]
    if new is None:
        # The output model is no longer generated, and a handler made from the stub imports it.
        text = (
            "no longer declares an output schema: its output model is gone, so remove its "
            "import and return type from the handler"
        )
        return [SchemaChange(text, breaking=True, model_gone=True)]
    differ = _Differ("output")
    if _type_of(old) != _type_of(new):
        differ.type_change(old, new, "result")
    else:
        differ.objects(old, new, "")
    differ.definitions(old, new)
    return differ.found
