"""`--inline-refs`: replace local `$ref`s by what they point to, for hosts that cannot resolve them.

Only local references (`#/...`) are inlined. A recursive reference cannot be inlined (it
would never end), so it is kept, together with the `$defs` it still needs, and reported.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

DEF_KEYS = ("$defs", "definitions")
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


@dataclass(frozen=True)
class Inlined:
    """The dereferenced schema, the refs left because they are recursive, and broken refs."""

    schema: Any
    recursive: tuple[str, ...] = ()
    unresolved: tuple[str, ...] = ()


def _resolve(root: Any, ref: str) -> Any:
    """The target of a local JSON pointer (`#/$defs/Point`), or KeyError."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        raise KeyError(ref)
    node = root
    for raw in ref[2:].split("/"):
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict):
            node = node[part]
        else:
            raise KeyError(ref)
    return node


def inline_refs(schema: Any) -> Inlined:
    """Dereference local `$ref`s; keep and report recursive ones. The input is not modified."""
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
                target = _resolve(schema, ref)
            except (KeyError, IndexError, ValueError):
                unresolved.add(ref)
                return {k: walk(v, active) for k, v in node.items()}
            resolved = walk(copy.deepcopy(target), (*active, ref))
            siblings = {k: walk(v, active) for k, v in node.items() if k != "$ref"}
            return _merge(resolved, siblings)
        return {k: walk(v, active) for k, v in node.items() if k not in DEF_KEYS or not active}

    result = walk(schema, ())
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
