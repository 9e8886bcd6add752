"""Checks on one tool's JSON Schema: its dialect, its keywords, `$ref`s, regexes, and examples.

Everything here works on paths relative to the schema; `validate.py` adds where the schema sits.
Metaschema validators are built once per dialect, so a 150-tool manifest costs 150 walks, not
150 validator compilations.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from mcpgen.manifest import fast_verdict
from mcpgen.manifest.ecma_regex import InvalidPattern, compile_pattern, with_ecma_regex
from mcpgen.manifest.messages import Finding, describe
from mcpgen.manifest.sourcemap import JsonPath

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

# jsonschema, referencing and the `$ref` machinery built on it are imported only when a schema
# needs them (a `$ref`, a problem to word): `mcpgen validate` of a sound manifest without
# references is judged by jsonschema-rs alone (`fast_verdict`), which loads much faster.

# The drafts mcpgen reads, by their `$schema` URI normalised (http, no final `#`): the name is
# the one jsonschema's metaschema package files them under.
DIALECTS = {
    "http://json-schema.org/draft-04/schema": "draft4",
    "http://json-schema.org/draft-06/schema": "draft6",
    "http://json-schema.org/draft-07/schema": "draft7",
    "http://json-schema.org/draft/2019-09/schema": "draft201909",
    "http://json-schema.org/draft/2020-12/schema": "draft202012",
}
DEFAULT_DIALECT = "draft202012"
_REFERENCE_CLASSES = {
    "draft4": "Draft4Validator",
    "draft6": "Draft6Validator",
    "draft7": "Draft7Validator",
    "draft201909": "Draft201909Validator",
    "draft202012": "Draft202012Validator",
}


def _normalise_uri(uri: str) -> str:
    return uri.rstrip("#").replace("https://", "http://", 1)


def dialect_of(schema: dict[str, Any]) -> str | None:
    """The draft `$schema` names (2020-12 when absent), as a `DIALECTS` name; None if unknown."""
    uri = schema.get("$schema")
    if uri is None:
        return DEFAULT_DIALECT
    if not isinstance(uri, str):
        return None
    return DIALECTS.get(_normalise_uri(uri))


def reference_class(dialect: str) -> type[Validator]:
    """jsonschema's validator class for a `DIALECTS` name."""
    import jsonschema.validators  # the slow path only

    cls: type[Validator] = getattr(jsonschema.validators, _REFERENCE_CLASSES[dialect])
    return cls


@cache
def _metaschema_validator(dialect: str) -> Validator:
    # No format checker: the metaschema's `format: regex` would judge patterns by Python's `re`;
    # patterns are compiled as ECMA-262 below instead.
    import jsonschema.validators  # the slow path only

    cls = reference_class(dialect)
    meta = cls.META_SCHEMA
    validator: Validator = jsonschema.validators.validator_for(meta, default=cls)(meta)
    return validator


def check_tool_schema(schema: dict[str, Any], role: str) -> list[Finding]:
    """Every problem in one input or output schema (`role` is "input" or "output")."""
    findings = _mcp_top_level(schema, role)
    dialect = dialect_of(schema)
    if dialect is None:
        known = "draft-04, draft-06, draft-07, 2019-09 or 2020-12"
        message = f"unknown $schema {schema.get('$schema')!r}; mcpgen reads {known}"
        return [*findings, Finding(("$schema",), message)]
    findings += [
        _draft4_bound_explained(f, schema, dialect) for f in _metaschema_findings(schema, dialect)
    ]
    findings += _walk_checks(schema)
    findings += openapi_findings(schema)
    return findings


# OpenAPI 3.0's schema keywords that JSON Schema does not define (so every validator ignores
# them) and what to write instead. `readOnly`, `writeOnly` and `deprecated` are JSON Schema
# annotations too; a boolean `exclusiveMinimum` is draft-04's (`_draft4_bound_explained`).
_OPENAPI_INSTEAD = {
    "example": "write `examples: [...]` (a list) instead",
    "discriminator": (
        "the `oneOf`/`anyOf` branches alone decide, and so do the models; to make the tag "
        "decide, give each branch a `const` for the tag property and list it in `required`"
    ),
    "xml": "remove it",
    "externalDocs": "put the link in `description` instead",
}
_OPENAPI_ONLY = frozenset({"nullable", *_OPENAPI_INSTEAD})
_DRAFT_NAMES = {"draft4": "draft-04", "draft6": "draft-06", "draft7": "draft-07"}
_DRAFT_NAMES |= {"draft201909": "2019-09", "draft202012": "2020-12"}


def openapi_findings(schema: dict[str, Any]) -> list[Finding]:
    """A warning at each OpenAPI-only keyword: JSON Schema, hence the server, ignores it."""
    if not _has_key(schema, _OPENAPI_ONLY):
        return []
    from mcpgen.schema.walk import walk  # loads referencing; only for such a schema

    return [
        Finding((*node.path, key), _openapi_message(key, node.schema), "warning", at_key=True)
        for node in walk(schema)
        for key in node.schema
        if key in _OPENAPI_ONLY
    ]


def _has_key(value: Any, keys: frozenset[str]) -> bool:
    """True when a mapping anywhere in `value` has one of `keys` (property names too)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not keys.isdisjoint(item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _openapi_message(key: str, schema: dict[str, Any]) -> str:
    ignored = f"`{key}` is OpenAPI's, not JSON Schema's: JSON Schema, so the server, ignores it"
    if key != "nullable":
        return f"{ignored}; {_OPENAPI_INSTEAD[key]}"
    if schema["nullable"] is not True:
        return f"{ignored}; remove it"
    return (
        f"{ignored} and refuses null here (the models take no None either); {_allow_null(schema)}"
    )


def _allow_null(schema: dict[str, Any]) -> str:
    """What to write so that `schema` also accepts null."""
    kind = schema.get("type")
    kinds = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else None
    if kinds is None:
        return 'to allow null, wrap the schema: `anyOf: [{...}, {type: "null"}]`'
    listed = ", ".join(json.dumps(k) for k in [*kinds, "null"])
    advice = f"to allow null, write `type: [{listed}]`"
    if isinstance(schema.get("enum"), list):
        advice += " and add null to `enum`"
    return advice


def _draft4_bound_explained(finding: Finding, schema: dict[str, Any], dialect: str) -> Finding:
    """The metaschema's "expected a number" at a boolean `exclusiveMinimum`/`exclusiveMaximum`,
    said as what it is: draft-04's (and OpenAPI 3.0's) spelling, and what to write instead."""
    if not finding.path or finding.path[-1] not in ("exclusiveMinimum", "exclusiveMaximum"):
        return finding
    node = _at(schema, finding.path[:-1])
    if not isinstance(node, dict) or not isinstance(node.get(finding.path[-1]), bool):
        return finding
    keyword = str(finding.path[-1])
    bound = "minimum" if keyword == "exclusiveMinimum" else "maximum"
    value = node.get(bound, "N")
    message = (
        f"`{keyword}: {json.dumps(node[keyword])}` is draft-04 (and OpenAPI 3.0) style; in "
        f"{_DRAFT_NAMES[dialect]} `{keyword}` is the bound itself, a number: "
        + (
            f"write `{keyword}: {json.dumps(value)}` in place of `{bound}: {json.dumps(value)}`"
            if node[keyword]
            else "remove it"
        )
        + " (or declare `$schema: http://json-schema.org/draft-04/schema#`)"
    )
    return Finding(finding.path, message, finding.level, finding.at_key)


def _at(schema: Any, path: JsonPath) -> Any:
    for part in path:
        if isinstance(schema, dict) and part in schema:
            schema = schema[part]
        elif isinstance(schema, list) and isinstance(part, int) and part < len(schema):
            schema = schema[part]
        else:
            return None
    return schema


# Subschema JSON text → its metaschema findings. Real servers repeat the same property
# schemas across many tools (azure: 235 tools, ~256 distinct properties), and the 2020-12
# metaschema, with its `$dynamicRef`s, is slow to evaluate; each distinct one is checked once.
_MetaKey = tuple[str, str]
_meta_cache: dict[_MetaKey, tuple[Finding, ...]] = {}
_META_CACHE_LIMIT = 20_000
_SPLIT_KEYWORDS = ("properties", "$defs", "definitions")


def _metaschema_findings(schema: dict[str, Any], dialect: str) -> list[Finding]:
    """The metaschema's verdict, checking top-level properties and definitions one by one.

    The metaschema applies itself to every subschema in the same way it applies to the root,
    so validating a property's schema alone gives the same errors, relative to it.
    """
    shell = {
        k: ({} if k in _SPLIT_KEYWORDS and isinstance(v, dict) else v) for k, v in schema.items()
    }
    findings = list(_metaschema_errors(dialect, shell))
    for keyword in _SPLIT_KEYWORDS:
        if isinstance(schema.get(keyword), dict):
            for name, subschema in schema[keyword].items():
                findings += [
                    Finding((keyword, name, *f.path), f.message, f.level, f.at_key)
                    for f in _metaschema_errors(dialect, subschema)
                ]
    return findings


def _metaschema_errors(dialect: str, schema: Any) -> tuple[Finding, ...]:
    key = (dialect, json.dumps(schema, sort_keys=True))
    if key not in _meta_cache:
        if len(_meta_cache) >= _META_CACHE_LIMIT:
            _meta_cache.clear()
        if fast_verdict.meets_metaschema(dialect, schema):
            _meta_cache[key] = ()
        else:
            validator = _metaschema_validator(dialect)
            found = tuple(f for e in validator.iter_errors(schema) for f in describe(e))
            _meta_cache[key] = found
    return _meta_cache[key]


def _mcp_top_level(schema: dict[str, Any], role: str) -> list[Finding]:
    if schema.get("type") == "object":
        return []
    path: JsonPath = ("type",) if "type" in schema else ()
    message = f"an {role} schema must have `type: object` at its top level (MCP requires it)"
    return [Finding(path, message)]


def _walk_checks(schema: dict[str, Any]) -> list[Finding]:
    if _no_walk_findings(schema):
        return []
    from mcpgen.schema.refs import SchemaRefs  # loads referencing

    refs = SchemaRefs(schema)
    findings = [Finding((*p.path, "$ref"), p.message) for p in refs.problems()]
    for node in refs.nodes:
        path = node.path or ()
        if isinstance(node.schema.get("pattern"), str):
            findings += _pattern_findings(node.schema["pattern"], (*path, "pattern"), at_key=False)
        if isinstance(node.schema.get("patternProperties"), dict):
            for pattern in node.schema["patternProperties"]:
                findings += _pattern_findings(
                    pattern, (*path, "patternProperties", pattern), at_key=True
                )
    return findings


def _pattern_findings(pattern: str, path: JsonPath, *, at_key: bool) -> list[Finding]:
    try:
        compile_pattern(pattern)
    except InvalidPattern as exc:
        message = f"invalid regular expression {pattern!r}: {exc} (patterns are ECMA-262)"
        return [Finding(path, message, at_key=at_key)]
    return []


def _no_walk_findings(schema: dict[str, Any]) -> bool:
    """True when the walk below certainly finds nothing: no `$ref` anywhere (so none can fail
    or loop), and every string under a `pattern` key and every key under `patternProperties`,
    keywords or not, compiles. The walk tells keywords from property names; this need not."""
    stack: list[Any] = [schema]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            if "$ref" in value:
                return False
            patterns = [value["pattern"]] if isinstance(value.get("pattern"), str) else []
            if isinstance(value.get("patternProperties"), dict):
                patterns += [p for p in value["patternProperties"] if isinstance(p, str)]
            for pattern in patterns:
                try:
                    compile_pattern(pattern)
                except InvalidPattern:
                    return False
            stack.extend(value.values())
    return True


def reference_validator(schema: dict[str, Any]) -> Validator:
    """A validator for `schema` in the draft it names, ECMA-262 patterns, nothing fetched."""
    from referencing import Registry  # the slow path only

    cls = reference_class(dialect_of(schema) or DEFAULT_DIALECT)
    # An empty registry whose retrieval fails: a `$ref` can never make validation fetch a URL.
    no_retrieval: Registry[Any] = Registry()
    return with_ecma_regex(cls)(schema, registry=no_retrieval)


def check_arguments(schema: dict[str, Any], arguments: Any) -> list[Finding]:
    """Each way `arguments` breaks `schema`, read in the draft the schema names."""
    if fast_verdict.arguments_accept(schema, dialect_of(schema) or DEFAULT_DIALECT, arguments):
        return []
    from referencing.exceptions import Unresolvable  # the slow path only

    validator = reference_validator(schema)
    try:
        return [f for error in validator.iter_errors(arguments) for f in describe(error)]
    except Unresolvable as exc:  # a reference form the static check above does not model
        return [Finding((), f"cannot check this example: a $ref does not resolve ({exc})")]
    except RecursionError:
        return [Finding((), "cannot check this example: the schema's $refs loop without end")]
