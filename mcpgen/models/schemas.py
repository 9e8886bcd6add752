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

from typing import Any

from mcpgen.manifest.model import Manifest
from mcpgen.models.branches import name_branches
from mcpgen.schema.refs import localize_refs
from mcpgen.schema.walk import Schema, map_schema

# Keys that only validate; jsonschema already did that with the right dialect.
_VALIDATION_ONLY = ("pattern", "format", "contentEncoding", "contentMediaType")
# OpenAPI's keywords, which the generator honours and JSON Schema ignores: the verdict is
# JSON Schema's, so the models ignore them too (`nullable: true` would let a model take and
# give the null the schema refuses; `discriminator` would refuse a branch without its tag
# that the schema accepts). `mcpgen validate` warns about them.
_OPENAPI_ONLY = ("nullable", "discriminator")
# Keywords that evaluate keys `properties` does not list (when not `false`).
_EXTRAS_KEYWORDS = ("additionalProperties", "unevaluatedProperties")
# Keywords that evaluate array items.
_ITEMS_KEYWORDS = ("prefixItems", "items", "contains", "unevaluatedItems")
# What a reference that cannot be followed is taken to be.
_EVALUATES_ALL: Schema = {"patternProperties": {}, "items": {}}
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
    relaxed: Schema = map_schema(local, lambda subschema: _relax(subschema, local))
    return name_branches(relaxed)


def _relax(schema: Schema, root: Schema) -> Schema:
    ignored = (*_VALIDATION_ONLY, *_OPENAPI_ONLY)
    relaxed = {k: v for k, v in schema.items() if k not in ignored}
    relaxed = _pattern_properties_as_map(relaxed)
    relaxed = _unevaluated_open_where_branches_evaluate(relaxed, root)
    relaxed = _unevaluated_items_open_where_others_evaluate(relaxed, root)
    relaxed = _nullable_branch_as_type_list(relaxed)
    relaxed = _null_default_only_where_null_is_allowed(relaxed)
    return _closed_prefix_items_as_tuple(relaxed)


def _pattern_properties_as_map(schema: Schema) -> Schema:
    """`patternProperties: {p: S}, additionalProperties: false` → `additionalProperties: S`,
    i.e. `dict[str, S]`: every key not listed matches the pattern. Otherwise a key no
    pattern matches may hold any value, so the extras stay untyped.

    jsonschema still checks the keys against the patterns.
    """
    patterns = schema.get("patternProperties")
    if not isinstance(patterns, dict) or not patterns:
        return schema
    values = list(patterns.values())
    closed = schema.get("additionalProperties", True) is False
    result = {k: v for k, v in schema.items() if k != "patternProperties"}
    result["additionalProperties"] = values[0] if len(values) == 1 and closed else True
    return result


def _unevaluated_open_where_branches_evaluate(schema: Schema, root: Schema) -> Schema:
    """`unevaluatedProperties` gives way to open extras when a branch applied in place
    (`allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`) evaluates keys it does
    not list: the generator would forbid or type those keys as extras, so the model would
    refuse a call whose keys the branch's patterns or extras took. jsonschema has judged them.
    """
    if schema.get("unevaluatedProperties", True) is True:
        return schema
    branches = _in_place_branches(schema)
    if not any(_evaluates_unlisted_keys(branch, root, set()) for branch in branches):
        return schema
    relaxed = {k: v for k, v in schema.items() if k != "unevaluatedProperties"}
    relaxed.setdefault("additionalProperties", True)  # kept as the model's extras
    return relaxed


def _unevaluated_items_open_where_others_evaluate(schema: Schema, root: Schema) -> Schema:
    """`unevaluatedItems` is dropped when `contains` or a branch applied in place evaluates
    items: the generator reads it as the type of every item (`false` as an empty list), so
    the model would refuse items the other keywords took. jsonschema has judged them."""
    if "unevaluatedItems" not in schema:
        return schema
    others = [{k: v for k, v in schema.items() if k == "contains"}]
    others += _in_place_branches(schema)
    if not any(_evaluates_items(other, root, set()) for other in others):
        return schema
    return {k: v for k, v in schema.items() if k != "unevaluatedItems"}


def _evaluates_items(schema: Any, root: Schema, seen: set[str]) -> bool:
    """Whether `schema`, a schema it refers to or a branch it applies in place may evaluate
    array items (`seen`: the references followed)."""
    if not isinstance(schema, dict):
        return False
    if any(key in schema for key in _ITEMS_KEYWORDS):
        return True
    return any(_evaluates_items(branch, root, seen) for branch in _branches(schema, root, seen))


def _branches(schema: Schema, root: Schema, seen: set[str]) -> list[Any]:
    """The subschemas applied in place, and the one its `$ref` points at (once)."""
    branches = _in_place_branches(schema)
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        seen.add(ref)
        # Every `$ref` is a pointer from the root by now; one that is not is taken as
        # evaluating: the model is then only more open than the schema, never stricter.
        branches.append(_pointed(root, ref))
    return branches


def _evaluates_unlisted_keys(schema: Any, root: Schema, seen: set[str]) -> bool:
    """Whether `schema`, a schema it refers to or a branch it applies in place may evaluate a
    key it does not list in `properties` (patterns come here as `additionalProperties`, see
    above). `seen` holds the references followed, so a recursive schema ends."""
    if not isinstance(schema, dict):
        return False
    if "patternProperties" in schema:
        return True
    if any(schema.get(key, False) is not False for key in _EXTRAS_KEYWORDS):
        return True
    branches = _branches(schema, root, seen)
    return any(_evaluates_unlisted_keys(branch, root, seen) for branch in branches)


def _pointed(root: Schema, ref: str) -> Any:
    """The subschema `ref` (`#/$defs/a`) points at in `root`; one taken as evaluating every
    key and item where it points at nothing."""
    if not ref.startswith("#"):
        return _EVALUATES_ALL
    node: Any = root
    for part in ref[1:].split("/")[1:]:
        key = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return _EVALUATES_ALL
    return node


def _in_place_branches(schema: Schema) -> list[Any]:
    """The subschemas applied to the same object as `schema`."""
    branches: list[Any] = []
    for keyword in ("allOf", "anyOf", "oneOf"):
        if isinstance(schema.get(keyword), list):
            branches += schema[keyword]
    branches += [schema[keyword] for keyword in ("if", "then", "else") if keyword in schema]
    if isinstance(schema.get("dependentSchemas"), dict):
        branches += schema["dependentSchemas"].values()
    return branches


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
