"""Resolve the `$ref`s of an OpenAPI document and convert its schemas for one tool.

Parameters, request bodies, responses and media types are looked up through `referencing`
(the library jsonschema uses), with the document as the only resource: JSON pointers,
escaping and percent-encoding are its job, and nothing outside the document can be reached.

A schema's reference to a component schema (`#/components/schemas/Pet`) is replaced by the
converted component, so that each tool's schema stands alone: hosts and model APIs that do
not resolve `$ref` read it, and the plan names a changed field by where it is
(`result[].tag`), not by a definition. A component on a reference cycle (a tree, a linked
list) cannot be inlined: it is kept as a local `$defs` entry of the tool's schema
(`#/$defs/Node`). Any other local reference is inlined; one that loops back on itself
without passing through a component is refused.
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
        self._cyclic: frozenset[str] | None = None

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

    def cyclic(self) -> frozenset[str]:
        """The component schemas on a reference cycle (they stay `$ref`s to `$defs`)."""
        if self._cyclic is None:
            components = self.data.get("components")
            schemas = components.get("schemas") if isinstance(components, dict) else None
            known: JSON = schemas if isinstance(schemas, dict) else {}
            graph = {
                name: {n for n in _component_refs_in(schema) if n in known}
                for name, schema in known.items()
            }
            self._cyclic = frozenset(_on_cycles(graph))
        return self._cyclic

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
        """A reference to component `name`: the converted component in its place, or a
        `$ref` to `$defs` for one on a cycle."""
        self.lookup(schema["$ref"])  # it must exist
        rest = convert_keywords(schema, self.version)
        if name in self.cyclic():
            need(name)
            rest["$ref"] = f"#/$defs/{_escape(name)}"
            return self._subschemas(rest, direction, need, inlining)
        del rest["$ref"]
        inlined = self.component(name, direction)
        for needed in self._component_refs[(name, direction)]:
            need(needed)
        if not rest:
            return inlined
        return {**inlined, **self._subschemas(rest, direction, need, inlining)}

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


def _component_refs_in(value: Any) -> set[str]:
    """The component schemas the `$ref`s in `value` name."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            name = _component_name(ref) if isinstance(ref, str) else None
            if name is not None:
                found.add(name)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _on_cycles(graph: dict[str, set[str]]) -> set[str]:
    """The nodes of `graph` that can reach themselves (Tarjan's strongly connected
    components, iteratively: a spec's reference chains can be deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: set[str] = set()
    for start, targets in graph.items():
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(targets))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                child = pending.pop()
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, sorted(graph.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph.get(node, ()):
                    found.update(group)
    return found


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
