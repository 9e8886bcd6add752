"""What changed between two versions of a schema, judged by what an existing client does.

A client *sends* values the input schema accepted: a change breaks it when some value it may
send today is refused tomorrow (a new required argument, a narrower type, enum, range, length
or pattern, an argument removed from a closed object). A client *reads* values the output
schema promised: a change breaks it when something it may rely on is gone or different (a field
removed or made optional, its type changed to one it did not expect, an enum value it never
saw). Descriptions, titles and examples never break anyone.

This is the mirror of `mcpgen.generation.schema_diff`, which judges the same schemas from the
handler's side; the type and enum tests are shared with it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from mcpgen.schema.kinds import widens

JSON = dict[str, Any]
Side = Literal["input", "output"]

# Keywords that document a schema without changing what it accepts (a `default` changes what
# the server assumes when the argument is left out, not what a client may send).
ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "default",
    }
)
# Lower bounds (raising one narrows) and upper bounds (lowering one narrows).
_LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
# Keywords whose any change may refuse a value accepted before (only removing one cannot).
_OPAQUE = ("pattern", "format", "multipleOf", "uniqueItems", "contentMediaType", "not")
# What `_walk` follows itself, so the rest is compared keyword by keyword.
_STRUCTURE = frozenset(
    {"type", "properties", "required", "items", "additionalProperties", "enum", "const"}
)


@dataclass(frozen=True)
class Finding:
    """One difference inside a schema, and whether it breaks an existing client."""

    text: str
    breaking: bool


def as_schema(value: Any) -> JSON:
    """`value` when it is a schema object, else the empty schema."""
    return value if isinstance(value, dict) else {}


def _enum(schema: JSON) -> list[str] | None:
    if "const" in schema:
        return [json.dumps(schema["const"], sort_keys=True)]
    if isinstance(schema.get("enum"), list):
        return [json.dumps(v, sort_keys=True) for v in schema["enum"]]
    return None


def _kind(schema: JSON) -> str:
    """A short human name for what a schema accepts."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    for combinator in ("oneOf", "anyOf"):
        if isinstance(schema.get(combinator), list):
            return " or ".join(sorted({_kind(as_schema(s)) for s in schema[combinator]}))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(sorted(str(k) for k in kind))
    if kind is None:
        implied = {"enum": "enum", "const": "enum", "properties": "object"}
        kind = next((name for key, name in implied.items() if key in schema), "any")
    return str(kind)


def _numeric(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


class _Walk:
    """Collects the findings of one schema pair, seen from one side of the wire."""

    def __init__(self, side: Side, word: str = "argument") -> None:
        self.side = side
        self.word = word  # what an input value is called: an argument, a URI variable
        self.found: list[Finding] = []

    def add(self, text: str, *, breaking: bool) -> None:
        self.found.append(Finding(text, breaking))

    def noun(self, name: str) -> str:
        if not name:
            return "the arguments" if self.side == "input" else "the result"
        for key in ("$defs.", "definitions."):
            if name.startswith(key):  # a named part, used wherever a `$ref` points to it
                return f"definition `{name.removeprefix(key)}`"
        return f"{self.word} `{name}`" if self.side == "input" else f"result field `{name}`"

    def schema(self, old: JSON, new: JSON, name: str) -> None:
        """Compare two schemas of one value."""
        if old == new:
            return
        if _kind(old) != _kind(new):
            self.type_change(old, new, name)
            return
        if "properties" in old or "properties" in new or _kind(new) == "object":
            self.objects(old, new, name)
        if isinstance(old.get("items"), dict) and isinstance(new.get("items"), dict):
            self.schema(old["items"], new["items"], f"{name}[]")
        for keyword in _COMBINATORS:
            if _pairwise(old, new, keyword):  # each part judged where it stands, as one value
                for was, now in zip(old[keyword], new[keyword], strict=True):
                    self.schema(as_schema(was), as_schema(now), name)
        if _enum(old) != _enum(new) and None not in (_enum(old), _enum(new)):
            self.enum_change(old, new, name)
        if (_enum(old) is None) != (_enum(new) is None):
            limited = _enum(new) is not None
            what = "now limited to listed values" if limited else "no longer limited to a list"
            self.narrowed(f"{self.noun(name)}: {what}", narrower=limited)
        self.constraints(old, new, name)
        self.annotations(old, new, name)

    def type_change(self, old: JSON, new: JSON, name: str) -> None:
        text = f"{self.noun(name)} changed type from {_kind(old)} to {_kind(new)}"
        if self.side == "input" and widens(old, new):
            self.add(f"{text} (wider: every value clients send is still accepted)", breaking=False)
        elif self.side == "output" and widens(new, old):
            self.add(f"{text} (narrower: every value is still one clients expect)", breaking=False)
        elif self.side == "input":
            self.add(f"{text}: values clients send may be refused", breaking=True)
        else:
            self.add(f"{text}: clients may get values they do not expect", breaking=True)

    def enum_change(self, old: JSON, new: JSON, name: str) -> None:
        before, after = set(_enum(old) or ()), set(_enum(new) or ())
        added, dropped = sorted(after - before), sorted(before - after)
        noun = self.noun(name)
        if self.side == "input":
            if dropped:
                self.add(f"{noun} no longer accepts {', '.join(dropped)}", breaking=True)
            if added:
                self.add(f"{noun} also accepts {', '.join(added)}", breaking=False)
        else:
            if added:
                why = ": clients may get a value they do not know"
                self.add(f"{noun} may now be {', '.join(added)}{why}", breaking=True)
            if dropped:
                self.add(f"{noun} is never {', '.join(dropped)} any more", breaking=False)

    def objects(self, old: JSON, new: JSON, name: str) -> None:
        old_props, new_props = as_schema(old.get("properties")), as_schema(new.get("properties"))
        old_req, new_req = set(old.get("required") or ()), set(new.get("required") or ())
        prefix = f"{name}." if name else ""
        for prop in sorted(old_props.keys() - new_props.keys()):
            self.removed(prefix + prop, closed=new.get("additionalProperties") is False)
        for prop in sorted(new_props.keys() - old_props.keys()):
            self.added(prefix + prop, required=prop in new_req)
        for prop in sorted(old_props.keys() & new_props.keys()):
            self.required(prefix + prop, was=prop in old_req, now=prop in new_req)
            self.schema(as_schema(old_props[prop]), as_schema(new_props[prop]), prefix + prop)
        for prop in sorted((new_req - old_req) - new_props.keys() - old_props.keys()):
            self.required(prefix + prop, was=False, now=True)
        self.closedness(old, new, name)

    def removed(self, name: str, *, closed: bool) -> None:
        noun = self.noun(name)
        if self.side == "output":
            self.add(f"{noun} removed: clients reading it get nothing", breaking=True)
        elif closed:
            why = ": no other argument is allowed, so clients still sending it are refused"
            self.add(f"{noun} removed{why}", breaking=True)
        else:
            self.add(f"{noun} removed (still accepted and ignored)", breaking=False)

    def added(self, name: str, *, required: bool) -> None:
        noun = self.noun(name)
        if self.side == "input" and required:
            why = ": clients that do not send it are refused"
            self.add(f"{noun} added, required{why}", breaking=True)
        else:
            self.add(
                f"{noun} added" + (", optional" if self.side == "input" else ""), breaking=False
            )

    def required(self, name: str, *, was: bool, now: bool) -> None:
        noun = self.noun(name)
        if was == now:
            return
        if self.side == "input":
            if now:
                why = ": clients that leave it out are refused"
                self.add(f"{noun} is now required{why}", breaking=True)
            else:
                self.add(f"{noun} is now optional", breaking=False)
        elif now:
            self.add(f"{noun} is now always present", breaking=False)
        else:
            self.add(f"{noun} may now be missing: clients reading it break", breaking=True)

    def closedness(self, old: JSON, new: JSON, name: str) -> None:
        was, now = old.get("additionalProperties"), new.get("additionalProperties")
        if self.side != "input" or was == now:
            return
        noun = self.noun(name)
        if now is False:
            self.add(f"{noun}: no other field is accepted any more", breaking=True)
        elif isinstance(now, dict) and was is not None:
            self.schema(as_schema(was), now, f"{name}.*" if name else "*")
        elif now is None or now is True:
            self.add(f"{noun}: other fields are accepted now", breaking=False)

    def constraints(self, old: JSON, new: JSON, name: str) -> None:
        for key, value in _bound_changes(old, new):
            self.bound(key, old.get(key), value, name)
        for key in _OPAQUE:
            self.opaque(key, old.get(key), new.get(key), name)
        for key, was, now in _other_changes(old, new):
            self.opaque(key, was, now, name)

    def bound(self, key: str, was: Any, now: Any, name: str) -> None:
        """A lower bound raised, an upper bound lowered, or one added narrows the values."""
        old_n, new_n = _numeric(was), _numeric(now)
        lower = key in _LOWER
        if old_n is not None and new_n is not None:
            narrower = new_n > old_n if lower else new_n < old_n
        else:
            narrower = now is not None
        text = f"{self.noun(name)}: {key} {_said(was)} → {_said(now)}"
        self.narrowed(text, narrower)

    def opaque(self, key: str, was: Any, now: Any, name: str) -> None:
        if was == now:
            return
        text = f"{self.noun(name)}: {key} {_said(was)} → {_said(now)}"
        self.narrowed(text, narrower=now is not None)

    def narrowed(self, text: str, narrower: bool) -> None:
        """A narrower input refuses what clients send; on the output side the values clients
        get only become fewer (or, when wider, may be new, which they read as before)."""
        if self.side == "input" and narrower:
            self.add(f"{text} (narrower: values clients send may be refused)", breaking=True)
        else:
            wording = "narrower" if narrower else "wider"
            self.add(f"{text} ({wording})", breaking=False)

    def annotations(self, old: JSON, new: JSON, name: str) -> None:
        keys = sorted(k for k in ANNOTATIONS if old.get(k) != new.get(k))
        if keys:
            self.add(f"{self.noun(name)}: {', '.join(keys)} changed", breaking=False)


def _said(value: Any) -> str:
    return "none" if value is None else json.dumps(value, sort_keys=True)


def _bound_changes(old: JSON, new: JSON) -> Iterator[tuple[str, Any]]:
    for key in (*_LOWER, *_UPPER):
        if old.get(key) != new.get(key):
            yield key, new.get(key)


def _other_changes(old: JSON, new: JSON) -> Iterator[tuple[str, Any, Any]]:
    """Keywords not judged one by one ($ref targets, combinators, $defs): any change may refuse
    a value, so each counts as a narrowing unless it was removed."""
    known = ANNOTATIONS | _STRUCTURE | set(_LOWER) | set(_UPPER) | set(_OPAQUE)
    for key in sorted((old.keys() | new.keys()) - known):
        if key in ("$defs", "definitions") or _pairwise(old, new, key):
            continue
        was, now = old.get(key), new.get(key)
        if json.dumps(was, sort_keys=True) != json.dumps(now, sort_keys=True):
            yield key, was, now


_COMBINATORS = ("allOf", "anyOf", "oneOf")


def _pairwise(old: JSON, new: JSON, key: str) -> bool:
    """Whether both schemas combine as many parts with `key`: then part i is compared with
    part i (an OpenAPI response is often `allOf: [$ref, {properties: ...}]`)."""
    was, now = old.get(key), new.get(key)
    return (
        key in _COMBINATORS
        and isinstance(was, list)
        and isinstance(now, list)
        and len(was) == len(now)
    )


def _definitions(walk: _Walk, old: JSON, new: JSON) -> None:
    """`$defs` / `definitions`: each named part compared where it stands."""
    for key in ("$defs", "definitions"):
        old_defs, new_defs = as_schema(old.get(key)), as_schema(new.get(key))
        for name in sorted(old_defs.keys() & new_defs.keys()):
            walk.schema(as_schema(old_defs[name]), as_schema(new_defs[name]), f"{key}.{name}")


def _compare(
    side: Side, old: JSON, new: JSON, name: str = "", word: str = "argument"
) -> list[Finding]:
    walk = _Walk(side, word)
    walk.schema(old, new, name)
    _definitions(walk, old, new)
    return walk.found


def input_findings(old: JSON, new: JSON) -> list[Finding]:
    """Differences between two input schemas, judged by what clients send."""
    return _compare("input", old, new)


def variable_findings(name: str, old: JSON, new: JSON) -> list[Finding]:
    """Differences between two schemas of one URI template variable."""
    return _compare("input", old, new, name, "variable")


def output_findings(old: JSON | None, new: JSON | None) -> list[Finding]:
    """Differences between two output schemas (None: none declared), judged by what clients
    read."""
    if old is None and new is None:
        return []
    if old is None:
        return [Finding("now declares an output schema (structured results)", breaking=False)]
    if new is None:
        text = "no longer declares an output schema: clients reading structured results break"
        return [Finding(text, breaking=True)]
    return _compare("output", old, new)
