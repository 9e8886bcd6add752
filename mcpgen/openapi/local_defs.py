"""The `$defs` of one tool's schema: drop the unused entries, inline the single-use ones.

A component used once in a tool's schema is written where it is used: the schema reads as
one piece, and the plan names a changed field by where it is (`result[].tag`) rather than by
a definition. Components used several times stay shared (one model class, not one per use,
which keeps the generated models of a thousand-operation API about half as long to make),
and so do those on a reference cycle, which cannot be inlined at all.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mcpgen.openapi.schema30 import JSON

_PREFIX = "#/$defs/"


def tidy_defs(schema: JSON) -> JSON:
    """`schema` with unused `$defs` entries dropped and single-use ones inlined."""
    schema = prune_defs(schema)
    defs = schema.get("$defs")
    if not isinstance(defs, dict) or not defs:
        return schema
    uses = Counter(_local_refs(schema))
    graph = {name: set(_local_refs(body)) & defs.keys() for name, body in defs.items()}
    cyclic = on_cycles(graph)
    single = {name for name in defs if uses[name] == 1 and name not in cyclic}
    if not single:
        return schema
    kept = {name: body for name, body in defs.items() if name not in single}

    def inline(value: Any) -> Any:
        if isinstance(value, list):
            return [inline(v) for v in value]
        if not isinstance(value, dict):
            return value
        ref = value.get("$ref")
        name = _def_name(ref) if isinstance(ref, str) else None
        if name in single:
            siblings = {k: inline(v) for k, v in value.items() if k != "$ref"}
            target = inline(defs[name])
            return {**target, **siblings} if isinstance(target, dict) else target
        return {k: inline(v) for k, v in value.items()}

    top: JSON = inline({k: v for k, v in schema.items() if k != "$defs"})
    if kept:
        top["$defs"] = {name: inline(body) for name, body in kept.items()}
    return top


def prune_defs(schema: JSON) -> JSON:
    """`schema` without the `$defs` entries nothing reaches (a flattened body's own one)."""
    defs = schema.get("$defs")
    if not isinstance(defs, dict):
        return schema
    reached: set[str] = set()
    pending = _local_refs({k: v for k, v in schema.items() if k != "$defs"})
    while pending:
        name = pending.pop()
        if name in reached or name not in defs:
            continue
        reached.add(name)
        pending.extend(_local_refs(defs[name]))
    if len(reached) == len(defs):
        return schema
    kept = {k: v for k, v in defs.items() if k in reached}
    trimmed = {k: v for k, v in schema.items() if k != "$defs"}
    return {**trimmed, "$defs": kept} if kept else trimmed


def _def_name(ref: str) -> str | None:
    if not ref.startswith(_PREFIX):
        return None
    return ref[len(_PREFIX) :].split("/", maxsplit=1)[0].replace("~1", "/").replace("~0", "~")


def _local_refs(value: Any) -> list[str]:
    """The `$defs` names the `$ref`s in `value` point at, once per reference."""
    found = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            name = _def_name(ref) if isinstance(ref, str) else None
            if name is not None:
                found.append(name)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def on_cycles(graph: dict[str, set[str]]) -> set[str]:
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
