"""Names for the object branches of a `oneOf`/`anyOf`, so their classes read like hand-written
ones: `NotesCreateInputAttachmentLink`, not `NotesCreateInputAttachmentNotesCreateInputAttachment1`.

A branch is named after its `title`, or after the `const` string that tells it from its
siblings (`kind: {const: link}`), and moved under `$defs` with that name; the generator
names a `$defs` entry's class after its key.
"""

from __future__ import annotations

import copy
from typing import Any

from referencing import Specification
from referencing.exceptions import Unresolvable

from mcpgen.core import names
from mcpgen.schema.refs import SchemaRefs
from mcpgen.schema.walk import JsonPath, Schema, children, json_pointer, specification_of


def _pascal(text: str) -> str:
    """`link` → `Link`, `file-upload` → `FileUpload`; empty for a text with no letters or digits."""
    found = names.words(text)
    return names.class_name("_".join(found)) if found else ""


def name_branches(schema: Schema) -> Schema:
    """A copy where each object branch of a `oneOf`/`anyOf` that has a name (its `title`, or
    the `const` that tells it from its siblings) moves under `$defs` with that name, so the
    generator names its class after it: `$defs: {AttachmentLink: …}`."""
    if not isinstance(schema.get("$defs", {}), dict):
        return schema  # the metaschema reports it; nowhere to name branches
    result = copy.deepcopy(schema)
    namer = _BranchNamer(result)
    namer.visit(result, "", (), specification_of(result, None))
    if namer.lifted:
        result["$defs"] = {**result.get("$defs", {}), **namer.lifted}
    return result


def _all_refs(node: Any) -> list[str]:
    if isinstance(node, list):
        return [ref for item in node for ref in _all_refs(item)]
    if not isinstance(node, dict):
        return []
    own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
    return own + [ref for value in node.values() for ref in _all_refs(value)]


def _child_stem(stem: str, path: JsonPath) -> str:
    keyword = path[0]
    if keyword in ("properties", "$defs", "definitions") and len(path) == 2:
        return _pascal(str(path[1]))
    if keyword in ("items", "prefixItems"):
        return f"{stem}Item"
    return stem


class _BranchNamer:
    """Moves nameable branches of one schema (changed in place) into `lifted`."""

    def __init__(self, root: Schema) -> None:
        self.root = root
        self.refs = set(_all_refs(root))
        self.resolver = SchemaRefs(root).resolver
        self.lifted: dict[str, Schema] = {}

    def visit(self, node: Schema, stem: str, path: JsonPath, spec: Specification[Any]) -> None:
        for child in list(children(node, spec)):
            child_stem = _child_stem(stem, child.path)
            self.visit(child.schema, child_stem, (*path, *child.path), child.specification)
        for keyword in ("oneOf", "anyOf"):
            branches = node.get(keyword)
            if isinstance(branches, list):
                self._lift(branches, stem, (*path, keyword))

    def _properties(self, branch: Any) -> Any:
        """The `properties` of a branch, through its `$ref` if it is one."""
        if isinstance(branch, dict) and isinstance(branch.get("$ref"), str):
            try:
                branch = self.resolver.lookup(branch["$ref"]).contents
            except (Unresolvable, AttributeError, TypeError, ValueError):
                return None
        return branch.get("properties") if isinstance(branch, dict) else None

    def _lift(self, branches: list[Any], stem: str, path: JsonPath) -> None:
        taken = set(self.root.get("$defs", {})) | set(self.lifted)
        tags = _discriminating_consts({i: self._properties(b) for i, b in enumerate(branches)})
        for index, name in _branch_names(branches, stem, tags).items():
            pointer = json_pointer((*path, index))
            pointed_into = any(r == pointer or r.startswith(f"{pointer}/") for r in self.refs)
            if name in taken or pointed_into:
                continue  # a clash, or a $ref into the branch that moving it would break
            self.lifted[name] = branches[index]
            branches[index] = {"$ref": f"#/$defs/{name}"}
            taken.add(name)


def _branch_names(branches: list[Any], stem: str, tags: dict[int, str]) -> dict[int, str]:
    """Index → name for each inline object branch that can be named; names are distinct."""
    found: dict[int, str] = {}
    for index, branch in enumerate(branches):
        if not isinstance(branch, dict) or "properties" not in branch or "$ref" in branch:
            continue
        title = branch.get("title")
        suffix = _pascal(title) if isinstance(title, str) else _pascal(tags.get(index, ""))
        if not suffix or not suffix[0].isalpha():
            continue
        found[index] = suffix if suffix.startswith(stem) else f"{stem}{suffix}"
    counts = list(found.values())
    return {i: name for i, name in found.items() if counts.count(name) == 1}


def _discriminating_consts(properties: dict[int, Any]) -> dict[int, str]:
    """Index → tag: the first property a branch fixes to a string no sibling fixes it to."""
    fixed = {
        i: {key: _fixed_string(schema) for key, schema in props.items()}
        for i, props in properties.items()
        if isinstance(props, dict)
    }
    tags: dict[int, str] = {}
    for index, mine in fixed.items():
        for key, value in mine.items():
            others = [other.get(key) for j, other in fixed.items() if j != index]
            if value is not None and value not in others:
                tags[index] = value
                break
    return tags


def _fixed_string(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return None
    value = schema.get("const")
    if value is None and isinstance(schema.get("enum"), list) and len(schema["enum"]) == 1:
        value = schema["enum"][0]
    return value if isinstance(value, str) else None
