"""Tool schemas → the schemas the model generator reads.

The models are a typed *view* of arguments that jsonschema has already validated against the
manifest's schemas. So before the generator sees a schema, it is

- made self-contained: every `$ref` a pointer from the root, with no `$id` left that would
  make the generator fetch a URL;
- relaxed where pydantic would judge differently from JSON Schema (ECMA-262 `pattern`s,
  `format`s, pattern-keyed maps): a call that passed validation must always build its model;
- shaped so the classes read like hand-written ones: a `null` default on a type without null
  is no default, a closed `prefixItems` array has a fixed length (a tuple), and the object
  branches of a `oneOf`/`anyOf` are named from their `title` or from the `const` that tells
  them apart (`NotesCreateInputAttachmentLink`, not `…Attachment1`).
"""

from __future__ import annotations

import copy
from typing import Any

from referencing.exceptions import Unresolvable

from mcpgen import names
from mcpgen.manifest.model import Manifest
from mcpgen.schema_refs import SchemaRefs, localize_refs
from mcpgen.schema_walk import DEFAULT_SPECIFICATION, JsonPath, Schema, children, map_schema

# Keys that only validate; jsonschema already did that with the right dialect.
_VALIDATION_ONLY = ("pattern", "format", "contentEncoding", "contentMediaType")
# Keys that decide the shape of a single-type branch and can move onto a `type: [T, null]`.
_SIMPLE_BRANCH_KEYS = frozenset(
    {
        "type",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "items",
        "uniqueItems",
        "enum",
        "description",
        "title",
        "default",
        "examples",
    }
)
# Constraints on one position of a tuple: the generator would make each constrained position
# a root model (`args.pair[0].root`); jsonschema has checked them already.
_POSITION_CONSTRAINTS = frozenset(
    {
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
    }
)


def model_schemas(manifest: Manifest) -> list[dict[str, Any]]:
    """The tools, as the MCP-tools document the model generator reads (names = class stems)."""
    tools: list[dict[str, Any]] = []
    for tool in manifest.tools:
        entry: dict[str, Any] = {
            "name": tool.class_name,
            "inputSchema": model_schema(tool.input_schema),
        }
        if tool.output_schema is not None:
            entry["outputSchema"] = model_schema(tool.output_schema)
        tools.append(entry)
    return tools


def model_schema(schema: Schema) -> Schema:
    """One tool schema as the model generator should read it."""
    local = localize_refs(schema)
    local.pop("$id", None)
    relaxed: Schema = map_schema(local, _relax)
    return name_branches(relaxed)


def _relax(schema: Schema) -> Schema:
    relaxed = {k: v for k, v in schema.items() if k not in _VALIDATION_ONLY}
    relaxed = _pattern_properties_as_map(relaxed)
    relaxed = _nullable_branch_as_type_list(relaxed)
    relaxed = _null_default_only_where_null_is_allowed(relaxed)
    return _closed_prefix_items_as_tuple(relaxed)


def _pattern_properties_as_map(schema: Schema) -> Schema:
    """`patternProperties: {p: S}` → `additionalProperties: S`, i.e. `dict[str, S]`.

    jsonschema still checks the keys against the patterns.
    """
    patterns = schema.get("patternProperties")
    if not isinstance(patterns, dict) or not patterns:
        return schema
    values = list(patterns.values())
    extra = schema.get("additionalProperties", True)
    result = {k: v for k, v in schema.items() if k != "patternProperties"}
    if len(values) == 1 and extra in (True, False):
        result["additionalProperties"] = values[0]
    else:
        result["additionalProperties"] = True
    return result


def _nullable_branch_as_type_list(schema: Schema) -> Schema:
    """`anyOf: [{type: T, ...}, {type: null}]` → `{type: [T, null], ...}`.

    The generator would otherwise build a root model for the constrained branch, whose
    `None` default is a type error for mypy.
    """
    branches = schema.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2:
        return schema
    nulls = [b for b in branches if b == {"type": "null"}]
    others = [b for b in branches if b != {"type": "null"}]
    if len(nulls) != 1 or len(others) != 1:
        return schema
    branch = others[0]
    if not isinstance(branch, dict) or not isinstance(branch.get("type"), str):
        return schema
    if not set(branch) <= _SIMPLE_BRANCH_KEYS or "enum" in branch:
        return schema
    merged = {k: v for k, v in schema.items() if k != "anyOf"}
    for key, value in branch.items():
        merged.setdefault(key, value)
    merged["type"] = [branch["type"], "null"]
    return merged


def _admits_null(schema: Schema) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    branches = [*schema.get("anyOf", ()), *schema.get("oneOf", ())]
    if any(isinstance(b, dict) and _admits_null(b) for b in branches):
        return True
    return None in schema.get("enum", ()) or ("const" in schema and schema["const"] is None)


def _null_default_only_where_null_is_allowed(schema: Schema) -> Schema:
    """`{type: string, default: null}` reads as "no default": `str | None = None`.

    Kept, it would give `x: str = None`, which no type checker accepts.
    """
    if "default" in schema and schema["default"] is None and not _admits_null(schema):
        return {k: v for k, v in schema.items() if k != "default"}
    return schema


def _closed_prefix_items_as_tuple(schema: Schema) -> Schema:
    """A `prefixItems` array that nothing may follow and that must be complete is a tuple.

    The generator makes a tuple when the length keywords fix the length; `items: false`
    with `minItems` equal to the number of positions fixes it, so `maxItems` is spelt out.
    """
    positions = schema.get("prefixItems")
    closed = schema.get("items") is False or schema.get("unevaluatedItems") is False
    if not isinstance(positions, list) or not closed:
        return schema
    if schema.get("minItems") != len(positions):
        return schema
    result = dict(schema)
    result["maxItems"] = len(positions)
    result["prefixItems"] = [
        {k: v for k, v in p.items() if k not in _POSITION_CONSTRAINTS} if isinstance(p, dict) else p
        for p in positions
    ]
    return result


# Branch names -----------------------------------------------------------------------------


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
    namer.visit(result, "", ())
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

    def visit(self, node: Schema, stem: str, path: JsonPath) -> None:
        for child in list(children(node, DEFAULT_SPECIFICATION)):
            self.visit(child.schema, _child_stem(stem, child.path), (*path, *child.path))
        for keyword in ("oneOf", "anyOf"):
            branches = node.get(keyword)
            if isinstance(branches, list):
                self._lift(branches, stem, (*path, keyword))

    def _properties(self, branch: Any) -> Any:
        """The `properties` of a branch, through its `$ref` if it is one."""
        if isinstance(branch, dict) and isinstance(branch.get("$ref"), str):
            try:
                branch = self.resolver.lookup(branch["$ref"]).contents
            except Unresolvable:
                return None
        return branch.get("properties") if isinstance(branch, dict) else None

    def _lift(self, branches: list[Any], stem: str, path: JsonPath) -> None:
        taken = set(self.root.get("$defs", {})) | set(self.lifted)
        tags = _discriminating_consts({i: self._properties(b) for i, b in enumerate(branches)})
        for index, name in _branch_names(branches, stem, tags).items():
            pointer = _pointer((*path, index))
            pointed_into = any(r == pointer or r.startswith(f"{pointer}/") for r in self.refs)
            if name in taken or pointed_into:
                continue  # a clash, or a $ref into the branch that moving it would break
            self.lifted[name] = branches[index]
            branches[index] = {"$ref": f"#/$defs/{name}"}
            taken.add(name)


def _pointer(path: JsonPath) -> str:
    return "#" + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


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
