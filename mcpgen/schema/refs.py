"""The `$ref`s of one schema, resolved as JSON Schema says and never fetched.

Resolution goes through `referencing` (the library jsonschema uses): a reference is read
against the `$id` of the resource it is written in, `$anchor`s and embedded `$id`s are found
by crawling the schema, and anything outside the schema is refused rather than retrieved.
On top of that: why a reference does not resolve, loops that validation could never leave,
and copies of the schema with references made local (`#/…` from the root) or inlined.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, reduce
from typing import Any, NoReturn, cast
from urllib.parse import unquote

from referencing import Registry, Resource, Specification
from referencing._core import Resolver
from referencing.exceptions import NoSuchAnchor, NoSuchResource, PointerToNowhere, Unresolvable
from referencing.jsonschema import DRAFT4, DRAFT6, DRAFT7

from mcpgen.errors import suggest
from mcpgen.schema.walk import (
    DEFAULT_SPECIFICATION,
    JsonPath,
    Schema,
    Subschema,
    children,
    json_pointer,
    specification_of,
)

# Keywords that apply their subschemas to the same instance. A chain of `$ref`s through only
# these comes back to the same schema with the same value: validation would never end.
# A chain through `properties`, `items` and the like moves into the value, and ends with it.
IN_PLACE = frozenset(
    {"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"}
)
# Drafts in which `$ref` replaces the schema it is written in: its siblings are not applied.
_REF_IGNORES_SIBLINGS = (DRAFT4, DRAFT6, DRAFT7)
# Maps whose keys a person chose (definitions, properties): a misspelt key gets a suggestion.
_NAMED_MAPS = frozenset({"$defs", "definitions", "properties"})
# Keywords that only annotate: a `$ref` beside them can be merged into its target safely.
ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
    }
)
DEF_KEYS = ("$defs", "definitions")


def _refuse(uri: str) -> NoReturn:
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # attrs-made __init__


@dataclass(frozen=True)
class Scoped:
    """A subschema, where it sits, its draft, and the resolver its `$ref`s are read with."""

    path: JsonPath | None  # None: reached only through a `$ref` into a non-schema position
    schema: Schema
    specification: Specification[Any]
    resolver: Resolver[Any]


@dataclass(frozen=True)
class RefProblem:
    """A `$ref` that cannot be followed or never ends; `path` is the schema holding it."""

    path: JsonPath
    message: str


class SchemaRefs:
    """One schema document with every subschema in its resolution scope."""

    def __init__(self, schema: Schema, specification: Specification[Any] | None = None) -> None:
        spec = specification_of(schema, specification or DEFAULT_SPECIFICATION)
        resource = spec.create_resource(schema)
        base = _id_of(resource)
        registry: Registry[Any] = Registry(retrieve=_refuse)  # type: ignore[call-arg]
        registry = registry.with_resource(base, resource)
        try:
            registry = registry.crawl()
        except (AttributeError, TypeError):  # a malformed keyword; the metaschema reports it
            pass
        self.root = schema
        self.resolver: Resolver[Any] = registry.resolver(base)
        self.nodes = list(self._walk(Scoped((), schema, spec, self.resolver)))
        # By identity: a YAML alias puts one object at several places; the first one wins.
        self._by_id: dict[int, Scoped] = {}
        self._order: dict[int, int] = {}
        for index, node in enumerate(self.nodes):
            self._by_id.setdefault(id(node.schema), node)
            self._order.setdefault(id(node.schema), index)

    @staticmethod
    def _walk(start: Scoped) -> Iterator[Scoped]:
        stack = [start]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed([_child_of(node, child) for child in _children(node)]))

    def lookup(self, node: Scoped, ref: str) -> Scoped | RefProblem:
        """The subschema `ref` (written in `node`) points to, or why it cannot be followed."""
        try:
            resolved = node.resolver.lookup(ref)
        except (Unresolvable, AttributeError, TypeError, ValueError) as exc:
            return RefProblem(node.path or (), _why_unresolvable(node.resolver, ref, exc))
        target = resolved.contents
        if isinstance(target, bool):  # `true`/`false` are schemas too, with nothing inside
            return Scoped(None, {}, node.specification, resolved.resolver)
        if not isinstance(target, dict):
            kind = type(target).__name__
            return RefProblem(node.path or (), f"$ref {ref!r} points to a {kind}, not a schema")
        known = self._by_id.get(id(target))
        if known is not None:
            return known
        spec = specification_of(target, node.specification)
        resource = spec.create_resource(target)
        resolver = (
            resolved.resolver.in_subresource(resource) if _id_of(resource) else resolved.resolver
        )
        return Scoped(None, target, spec, resolver)

    def problems(self) -> list[RefProblem]:
        """Every `$ref` that cannot be followed, and every loop validation could never leave."""
        found: list[RefProblem] = []
        for node in self.nodes:
            ref = node.schema.get("$ref")
            if isinstance(ref, str):
                result = self.lookup(node, ref)
                if isinstance(result, RefProblem):
                    found.append(result)
        return found + self._loops()

    def _in_place_successors(self, node: Scoped) -> Iterator[Scoped]:
        ref = node.schema.get("$ref")
        if isinstance(ref, str):
            target = self.lookup(node, ref)
            if isinstance(target, Scoped):
                yield target
            if node.specification in _REF_IGNORES_SIBLINGS:
                return
        for child in children(node.schema, node.specification):
            if child.path[0] in IN_PLACE:
                yield self._by_id.get(id(child.schema)) or _child_of(node, _inside(node, child))

    def _loops(self) -> list[RefProblem]:
        state: dict[int, bool] = {}  # id → True while on the current chain, False when done
        chain: list[Scoped] = []
        loops: dict[frozenset[int], RefProblem] = {}

        def visit(node: Scoped) -> None:
            state[id(node.schema)] = True
            chain.append(node)
            for successor in self._in_place_successors(node):
                seen = state.get(id(successor.schema))
                if seen is None:
                    visit(successor)
                elif seen:
                    start = next(i for i, n in enumerate(chain) if n.schema is successor.schema)
                    cycle = chain[start:]
                    loops.setdefault(frozenset(id(n.schema) for n in cycle), self._loop(cycle))
            chain.pop()
            state[id(node.schema)] = False

        for node in self.nodes:
            if id(node.schema) not in state:
                visit(node)
        return list(loops.values())

    def _loop(self, cycle: list[Scoped]) -> RefProblem:
        """The loop reported at the first of its `$ref`s in the document."""
        hops = [n for i, n in enumerate(cycle) if self._refers_to(n, cycle[(i + 1) % len(cycle)])]
        first = min(hops, key=lambda n: self._order.get(id(n.schema), len(self._order)))
        at = next(i for i, n in enumerate(cycle) if n is first)
        hop_ids = {id(n) for n in hops}
        steps = [n.schema["$ref"] for n in cycle[at:] + cycle[:at] if id(n) in hop_ids]
        route = " → ".join([*(repr(step) for step in steps), "here"])
        message = (
            f"$ref {steps[0]!r} loops back here ({route}) without passing through a property "
            "or an array item: validation would never end"
        )
        return RefProblem(first.path or (), message)

    def _refers_to(self, node: Scoped, target: Scoped) -> bool:
        ref = node.schema.get("$ref")
        if not isinstance(ref, str):
            return False
        found = self.lookup(node, ref)
        return isinstance(found, Scoped) and found.schema is target.schema

    @cached_property
    def _paths(self) -> dict[int, JsonPath]:
        return _container_paths(self.root)

    def local_pointer(self, node: Scoped, ref: str) -> str | None:
        """`ref` as a pointer from the root (`#/$defs/B`), or None if it does not resolve."""
        target = self.lookup(node, ref)
        if isinstance(target, RefProblem):
            return None
        path = target.path if target.path is not None else self._paths.get(id(target.schema))
        if path is None:
            return None
        return json_pointer(path)


def _children(node: Scoped) -> list[Scoped]:
    return [_inside(node, child) for child in children(node.schema, node.specification)]


def _inside(parent: Scoped, child: Subschema) -> Scoped:
    """`child` (path relative to `parent`) with its path from the root."""
    path = None if parent.path is None else (*parent.path, *child.path)
    return Scoped(path, child.schema, child.specification, parent.resolver)


def _child_of(parent: Scoped, child: Scoped) -> Scoped:
    """`child` with the resolver of its own scope (a new base URI if it has an `$id`)."""
    resource = child.specification.create_resource(child.schema)
    resolver = parent.resolver.in_subresource(resource) if _id_of(resource) else parent.resolver
    return Scoped(child.path, child.schema, child.specification, resolver)


def _id_of(resource: Resource[Any]) -> str:
    """The resource's own URI, or "" when it has none, or one that is not a string (the
    metaschema reports that; resolution goes on as if it were absent)."""
    try:
        found = resource.id()
    except (AttributeError, TypeError):
        return ""
    return found if isinstance(found, str) else ""


def _container_paths(root: Any) -> dict[int, JsonPath]:
    """Every mapping and list in a JSON document by identity → its path (the first one)."""
    paths: dict[int, JsonPath] = {}
    stack: list[tuple[JsonPath, Any]] = [((), root)]
    while stack:
        path, value = stack.pop()
        if not isinstance(value, dict | list) or id(value) in paths:
            continue
        paths[id(value)] = path
        items = value.items() if isinstance(value, dict) else enumerate(value)
        stack.extend(((*path, key), item) for key, item in reversed(list(items)))
    return paths


def _external(ref: str) -> str:
    return (
        f"external $ref {ref!r} is refused: mcpgen never fetches schemas; copy the "
        "definition under `$defs` and refer to it as '#/$defs/<Name>'"
    )


def _why_unresolvable(resolver: Resolver[Any], ref: str, exc: Exception) -> str:
    if isinstance(exc, PointerToNowhere):
        return _pointer_problem(resolver, ref)
    if isinstance(exc, NoSuchAnchor):
        return f"$ref {ref!r}: no `$anchor: {unquote(ref.partition('#')[2])}` here"
    if isinstance(exc, Unresolvable):
        return _external(ref)
    return f"$ref {ref!r} does not resolve"  # a malformed schema on the way


def _unescape(token: str) -> str:
    return unquote(token).replace("~1", "/").replace("~0", "~")


def _pointer_problem(resolver: Resolver[Any], ref: str) -> str:
    """Which step of a JSON pointer finds nothing, found by looking up ever longer prefixes."""
    base, _, fragment = ref.partition("#")
    walked = ""
    tokens = fragment[1:].split("/")
    for token in tokens:
        try:
            resolver.lookup(f"{base}#{walked}/{token}")
        except PointerToNowhere:
            break
        walked += f"/{token}"
    missing = _unescape(tokens[len(walked.split("/")) - 1] if walked else tokens[0])
    hint = ""
    if walked.rsplit("/", 1)[-1] in _NAMED_MAPS:
        parent = resolver.lookup(f"{base}#{walked}").contents
        if isinstance(parent, dict):
            hint = suggest(missing, parent)
    return f"$ref {ref!r} does not resolve: {'#' + _unescape(walked)!r} has no {missing!r}{hint}"


def localize_refs(schema: Schema) -> Schema:
    """A copy where every `$ref` that resolves is a pointer from the root and only the root
    keeps its `$id`, so that tools reading `#/…` pointers alone (the model generator, hosts)
    see the same targets, and nothing tempts them to fetch an absolute `$id`."""
    refs = SchemaRefs(schema)
    result = copy.deepcopy(schema)
    for node in refs.nodes:
        assert node.path is not None
        target: Any = reduce(lambda value, key: value[key], node.path, cast(Any, result))
        if node.path and "$id" in target:
            del target["$id"]
        ref = node.schema.get("$ref")
        if isinstance(ref, str):
            pointer = refs.local_pointer(node, ref)
            if pointer is not None and pointer != unquote(ref):  # already local: as written
                target["$ref"] = pointer
    return result


@dataclass(frozen=True)
class Inlined:
    """The dereferenced schema, the refs left because they are recursive, and broken refs."""

    schema: Any
    recursive: tuple[str, ...] = ()
    unresolved: tuple[str, ...] = ()


def inline_refs(schema: Any) -> Inlined:
    """Dereference `$ref`s; keep and report recursive ones. The input is not modified."""
    if not isinstance(schema, dict):
        return Inlined(schema)
    local = localize_refs(schema)
    refs = SchemaRefs(local)
    recursive: set[str] = set()
    unresolved: set[str] = set()

    def walk(node: Any, active: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(item, active) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref in active:
                recursive.add(ref)
                return {k: walk(v, active) for k, v in node.items()}
            try:
                target = refs.resolver.lookup(ref).contents if ref.startswith("#") else None
            except (Unresolvable, AttributeError, TypeError, ValueError):
                target = None
            if target is None:
                unresolved.add(ref)
                return {k: walk(v, active) for k, v in node.items()}
            resolved = walk(copy.deepcopy(target), (*active, ref))
            siblings = {k: walk(v, active) for k, v in node.items() if k != "$ref"}
            return _merge(resolved, siblings)
        return {k: walk(v, active) for k, v in node.items() if k not in DEF_KEYS or not active}

    result = walk(local, ())
    if isinstance(result, dict):
        result = _prune_defs(result, recursive)
    return Inlined(result, tuple(sorted(recursive)), tuple(sorted(unresolved)))


def _merge(resolved: Any, siblings: dict[str, Any]) -> Any:
    if not siblings:
        return resolved
    if isinstance(resolved, dict) and not (set(siblings) & set(resolved)) - ANNOTATIONS:
        return {**resolved, **siblings}
    # Overlapping assertions (both sides constrain `properties`, say): keep both, exactly.
    return {**siblings, "allOf": [resolved]}


def _prune_defs(root: dict[str, Any], keep_refs: set[str]) -> dict[str, Any]:
    """Drop the `$defs` nothing points to any more; keep those recursive refs still need."""
    pruned = dict(root)
    for key in DEF_KEYS:
        defs = pruned.get(key)
        if not isinstance(defs, dict):
            continue
        kept = {
            name: value
            for name, value in defs.items()
            if any(ref.startswith(f"#/{key}/{name}") for ref in keep_refs)
        }
        if kept:
            pruned[key] = kept
        else:
            del pruned[key]
    return pruned
