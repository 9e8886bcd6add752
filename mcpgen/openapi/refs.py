"""Resolve the `$ref`s of an OpenAPI document and convert its schemas for one tool.

Parameters, request bodies, responses and media types are looked up through `referencing`
(the library jsonschema uses), with the document as the only resource: JSON pointers,
escaping and percent-encoding are its job, and nothing outside the document can be reached.

A schema's reference to a component schema (`#/components/schemas/Pet`) becomes a local
`$defs` entry of the tool's schema (`#/$defs/Pet`), so a recursive schema stays finite and a
shared one is converted once; `local_defs` then inlines the entries used only once. Any
other local reference is inlined; one that loops back on itself without passing through a
component is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from referencing import Registry, Resource
from referencing.exceptions import Unresolvable

from mcpgen.openapi.schema30 import JSON, convert_keywords

COMPONENT_PREFIX = "#/components/schemas/"
# Keywords whose value is one subschema, a list of them, or a map of name → subschema.
_ONE = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "contains",
        "propertyNames",
        "if",
        "then",
        "else",
        "unevaluatedItems",
        "unevaluatedProperties",
        "additionalItems",
    }
)
_MANY = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_MAP = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas", "definitions"})

Direction = str  # "request": readOnly properties are left out; "response": writeOnly ones


class RefError(Exception):
    """A reference that cannot be followed; `ref` is what the document wrote."""

    def __init__(self, ref: str, why: str) -> None:
        super().__init__(f"$ref '{ref}' {why}")
        self.ref = ref


class SpecRefs:
    """Lookups of `$ref`s inside one document, and schema conversion with `$defs`."""

    def __init__(self, data: JSON, version: str) -> None:
        self.data = data
        self.version = version
        resource: Resource[Any] = Resource.opaque(data)
        self._resolver = Registry().with_resource("", resource).resolver()
        # Converted component schemas by (name, direction): shared across the tools.
        self._components: dict[tuple[str, Direction], JSON] = {}
        self._component_refs: dict[tuple[str, Direction], frozenset[str]] = {}

    def lookup(self, ref: str) -> Any:
        """The value a local `$ref` points at; RefError when it points nowhere."""
        if not ref.startswith("#"):
            raise RefError(ref, "points outside the document")
        try:
            return self._resolver.lookup(ref).contents
        except Unresolvable:
            raise RefError(ref, "points to nothing in the document") from None

    def deref(self, value: Any, limit: int = 32) -> Any:
        """`value`, or what its `$ref` chain ends at (a parameter, a response, a body)."""
        seen = 0
        while isinstance(value, dict) and isinstance(value.get("$ref"), str):
            seen += 1
            if seen > limit:
                raise RefError(value["$ref"], "is part of a reference loop")
            value = self.lookup(value["$ref"])
        return value

    def schema_for_tool(self, schema: Any, direction: Direction) -> tuple[JSON, dict[str, JSON]]:
        """`schema` in JSON Schema 2020-12, and the component schemas it needs as `$defs`."""
        needed: set[str] = set()
        converted = self._convert(schema, direction, needed.add, ())
        defs: dict[str, JSON] = {}
        pending = sorted(needed)
        while pending:
            name = pending.pop()
            if name in defs:
                continue
            defs[name] = self.component(name, direction)
            pending.extend(sorted(self._component_refs[(name, direction)] - defs.keys()))
        return converted, dict(sorted(defs.items()))

    def component(self, name: str, direction: Direction) -> JSON:
        """Component schema `name`, converted once per direction."""
        key = (name, direction)
        if key not in self._components:
            raw = self.lookup(f"{COMPONENT_PREFIX}{_escape(name)}")
            refs: set[str] = set()
            self._components[key] = self._convert(raw, direction, refs.add, ())
            self._component_refs[key] = frozenset(refs)
        return self._components[key]

    def _convert(
        self,
        schema: Any,
        direction: Direction,
        need: Callable[[str], None],
        inlining: tuple[str, ...],
    ) -> Any:
        if not isinstance(schema, dict):
            return schema  # a boolean schema, or a value the validator already refused
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = _component_name(ref)
            if name is not None:
                return self._component_ref(schema, name, direction, need, inlining)
            if ref in inlining:
                raise RefError(ref, "refers back to itself; move the schema to components/schemas")
            target = self.lookup(ref)
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            inlined = self._convert(target, direction, need, (*inlining, ref))
            if siblings and isinstance(inlined, dict):
                extra = self._convert(siblings, direction, need, inlining)
                return {**inlined, **extra} if self.version == "3.1" else inlined
            return inlined
        converted = convert_keywords(schema, self.version)
        return self._subschemas(converted, direction, need, inlining)

    def _component_ref(
        self,
        schema: JSON,
        name: str,
        direction: Direction,
        need: Callable[[str], None],
        inlining: tuple[str, ...],
    ) -> JSON:
        """A reference to component `name`, as a reference to the tool's `$defs`."""
        self.lookup(schema["$ref"])  # it must exist
        need(name)
        rest = convert_keywords(schema, self.version)
        rest["$ref"] = f"#/$defs/{_escape(name)}"
        return self._subschemas(rest, direction, need, inlining)

    def _subschemas(
        self,
        schema: JSON,
        direction: Direction,
        need: Callable[[str], None],
        inlining: tuple[str, ...],
    ) -> JSON:
        def sub(value: Any) -> Any:
            return self._convert(value, direction, need, inlining)

        for key in list(schema):
            value = schema[key]
            if key in _ONE and isinstance(value, dict):
                schema[key] = sub(value)
            elif key == "items" and isinstance(value, list):
                schema[key] = [sub(v) for v in value]
            elif key in _MANY and isinstance(value, list):
                schema[key] = [sub(v) for v in value]
            elif key in _MAP and isinstance(value, dict):
                schema[key] = {k: sub(v) for k, v in value.items()}
        if isinstance(schema.get("properties"), dict):
            _drop_one_way(schema, direction)
        return schema


def _drop_one_way(schema: JSON, direction: Direction) -> None:
    """Leave out the properties that never travel this way: readOnly ones in a request,
    writeOnly ones in a response (and from `required`, or no valid value could exist)."""
    flag = "readOnly" if direction == "request" else "writeOnly"
    properties = schema["properties"]
    dropped = [k for k, v in properties.items() if isinstance(v, dict) and v.get(flag) is True]
    if not dropped:
        return
    schema["properties"] = {k: v for k, v in properties.items() if k not in dropped}
    if isinstance(schema.get("required"), list):
        schema["required"] = [r for r in schema["required"] if r not in dropped]
        if not schema["required"]:
            del schema["required"]


def _component_name(ref: str) -> str | None:
    """`#/components/schemas/Pet` → `Pet`; None for any other reference."""
    if not ref.startswith(COMPONENT_PREFIX):
        return None
    rest = ref[len(COMPONENT_PREFIX) :]
    if "/" in rest:
        return None
    return unquote(rest).replace("~1", "/").replace("~0", "~")


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")
