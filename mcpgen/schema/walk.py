"""Walk a JSON Schema subschema by subschema, in the draft each one declares.

Which keywords hold subschemas, per draft, is `referencing`'s knowledge; this module adds
the path of each subschema, so that a problem can be located in the manifest, and so that a
property *named* `pattern` is never mistaken for the `pattern` keyword.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from referencing import Specification
from referencing.jsonschema import DRAFT202012, UnknownDialect, specification_with

JsonPath = tuple[str | int, ...]
Schema = dict[str, Any]
Transform = Callable[[Schema], Schema]

DEFAULT_SPECIFICATION: Specification[Any] = DRAFT202012
# Where `$ref`s point by convention. Older drafts know only `definitions` and 2020-12 both, but
# real draft-07 schemas use `$defs` too: what a reference can reach is walked, in every draft.
_DEFINITIONS = ("$defs", "definitions")


@cache
def specification_for(dialect: str) -> Specification[Any] | None:
    """The draft a `$schema` URI names, or None if unknown (http/https and a final `#` vary)."""
    bare = dialect.rstrip("#")
    for scheme_swapped in (bare, bare.replace("https://", "http://", 1)):
        for candidate in (scheme_swapped, f"{scheme_swapped}#"):
            try:
                return specification_with(candidate)
            except UnknownDialect:
                continue
    return None


def specification_of(schema: Any, default: Specification[Any] | None) -> Specification[Any]:
    """The draft `schema` declares with `$schema`, else `default` (2020-12 if None)."""
    dialect = schema.get("$schema") if isinstance(schema, dict) else None
    found = specification_for(dialect) if isinstance(dialect, str) else None
    return found or default or DEFAULT_SPECIFICATION


def json_pointer(path: JsonPath) -> str:
    """`("$defs", "a/b")` → `#/$defs/a~1b`: a reference to that place from the root."""
    return "#" + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


@dataclass(frozen=True)
class Subschema:
    """One schema object inside a document, where it sits, and the draft it is read in."""

    path: JsonPath
    schema: Schema
    specification: Specification[Any]


def children(schema: Schema, specification: Specification[Any]) -> Iterator[Subschema]:
    """The subschemas directly inside `schema` (boolean schemas left out), with relative paths."""
    for key, value in schema.items():
        found = _subresources(specification, key, value)
        if key in _DEFINITIONS and not found and isinstance(value, dict):
            found = {id(item) for item in value.values()}
        if not found:
            continue
        for path, item in _positions(key, value):
            if id(item) in found and isinstance(item, dict):
                yield Subschema(path, item, specification_of(item, specification))


def _subresources(specification: Specification[Any], key: str, value: Any) -> set[int]:
    try:
        return {id(item) for item in specification.subresources_of({key: value})}
    except (AttributeError, TypeError):  # a malformed keyword; the metaschema reports it
        return set()


def _positions(key: str, value: Any) -> Iterator[tuple[JsonPath, Any]]:
    yield (key,), value
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield (key, index), item
    elif isinstance(value, dict):
        for name, item in value.items():
            yield (key, name), item


def walk(
    schema: Any, specification: Specification[Any] | None = None, path: JsonPath = ()
) -> Iterator[Subschema]:
    """Every schema object inside `schema` (itself first), depth first, in document order."""
    if not isinstance(schema, dict):
        return
    here = Subschema(path, schema, specification_of(schema, specification or DEFAULT_SPECIFICATION))
    stack = [here]
    while stack:
        node = stack.pop()
        yield node
        found = [
            Subschema((*node.path, *child.path), child.schema, child.specification)
            for child in children(node.schema, node.specification)
        ]
        stack.extend(reversed(found))


def map_schema(
    schema: Any, transform: Transform, specification: Specification[Any] | None = None
) -> Any:
    """A copy of `schema` with `transform` applied to every (sub)schema, innermost first."""
    if not isinstance(schema, dict):
        return schema
    spec = specification_of(schema, specification or DEFAULT_SPECIFICATION)
    result: Schema = dict(schema)
    copied: set[str] = set()
    for child in children(schema, spec):
        mapped = map_schema(child.schema, transform, child.specification)
        key = str(child.path[0])
        if len(child.path) == 1:
            result[key] = mapped
            continue
        if key not in copied:  # copy the list or mapping once, so the input stays as it was
            result[key] = list(result[key]) if isinstance(result[key], list) else dict(result[key])
            copied.add(key)
        result[key][child.path[1]] = mapped
    return transform(result)
