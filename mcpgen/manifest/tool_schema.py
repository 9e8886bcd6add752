"""Checks on one tool's JSON Schema: its dialect, its keywords, `$ref`s, regexes, and examples.

Everything here works on paths relative to the schema; `validate.py` adds where the schema sits.
Metaschema validators are built once per dialect, so a 150-tool manifest costs 150 walks, not
150 validator compilations.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema.validators
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.exceptions import Unresolvable

from mcpgen.manifest.ecma_regex import InvalidPattern, compile_pattern, with_ecma_regex
from mcpgen.manifest.messages import Finding, describe
from mcpgen.manifest.sourcemap import JsonPath
from mcpgen.schema_refs import SchemaRefs

DEFAULT_DIALECT: type[Validator] = jsonschema.validators.Draft202012Validator
_DIALECTS: tuple[type[Validator], ...] = (
    jsonschema.validators.Draft4Validator,
    jsonschema.validators.Draft6Validator,
    jsonschema.validators.Draft7Validator,
    jsonschema.validators.Draft201909Validator,
    jsonschema.validators.Draft202012Validator,
)
# An empty registry whose retrieval fails: a `$ref` can never make validation fetch a URL.
_NO_RETRIEVAL: Registry[Any] = Registry()


def _normalise_uri(uri: str) -> str:
    return uri.rstrip("#").replace("https://", "http://", 1)


@cache
def _dialects_by_uri() -> dict[str, type[Validator]]:
    # Draft 4 names its own URI `id`; later drafts `$id`.
    return {
        _normalise_uri(cls.META_SCHEMA.get("$id") or cls.META_SCHEMA["id"]): cls
        for cls in _DIALECTS
    }


def dialect_of(schema: dict[str, Any]) -> type[Validator] | None:
    """The validator class for the draft `$schema` names (2020-12 when absent); None if unknown."""
    uri = schema.get("$schema")
    if uri is None:
        return DEFAULT_DIALECT
    if not isinstance(uri, str):
        return None
    return _dialects_by_uri().get(_normalise_uri(uri))


@cache
def _metaschema_validator(cls: type[Validator]) -> Validator:
    # No format checker: the metaschema's `format: regex` would judge patterns by Python's `re`;
    # patterns are compiled as ECMA-262 below instead.
    meta = cls.META_SCHEMA
    return jsonschema.validators.validator_for(meta, default=cls)(meta)


def check_tool_schema(schema: dict[str, Any], role: str) -> list[Finding]:
    """Every problem in one input or output schema (`role` is "input" or "output")."""
    findings = _mcp_top_level(schema, role)
    cls = dialect_of(schema)
    if cls is None:
        known = "draft-04, draft-06, draft-07, 2019-09 or 2020-12"
        message = f"unknown $schema {schema.get('$schema')!r}; mcpgen reads {known}"
        return [*findings, Finding(("$schema",), message)]
    findings += _metaschema_findings(schema, cls)
    findings += _walk_checks(schema)
    return findings


# Subschema JSON text → its metaschema findings. Real servers repeat the same property
# schemas across many tools (azure: 235 tools, ~256 distinct properties), and the 2020-12
# metaschema, with its `$dynamicRef`s, is slow to evaluate; each distinct one is checked once.
_MetaKey = tuple[type[Validator], str]
_meta_cache: dict[_MetaKey, tuple[Finding, ...]] = {}
_META_CACHE_LIMIT = 20_000
_SPLIT_KEYWORDS = ("properties", "$defs", "definitions")


def _metaschema_findings(schema: dict[str, Any], cls: type[Validator]) -> list[Finding]:
    """The metaschema's verdict, checking top-level properties and definitions one by one.

    The metaschema applies itself to every subschema in the same way it applies to the root,
    so validating a property's schema alone gives the same errors, relative to it.
    """
    shell = {
        k: ({} if k in _SPLIT_KEYWORDS and isinstance(v, dict) else v) for k, v in schema.items()
    }
    findings = list(_metaschema_errors(cls, shell))
    for keyword in _SPLIT_KEYWORDS:
        if isinstance(schema.get(keyword), dict):
            for name, subschema in schema[keyword].items():
                findings += [
                    Finding((keyword, name, *f.path), f.message, f.level, f.at_key)
                    for f in _metaschema_errors(cls, subschema)
                ]
    return findings


def _metaschema_errors(cls: type[Validator], schema: Any) -> tuple[Finding, ...]:
    key = (cls, json.dumps(schema, sort_keys=True))
    if key not in _meta_cache:
        if len(_meta_cache) >= _META_CACHE_LIMIT:
            _meta_cache.clear()
        validator = _metaschema_validator(cls)
        _meta_cache[key] = tuple(f for e in validator.iter_errors(schema) for f in describe(e))
    return _meta_cache[key]


def _mcp_top_level(schema: dict[str, Any], role: str) -> list[Finding]:
    if schema.get("type") == "object":
        return []
    path: JsonPath = ("type",) if "type" in schema else ()
    message = f"an {role} schema must have `type: object` at its top level (MCP requires it)"
    return [Finding(path, message)]


def _walk_checks(schema: dict[str, Any]) -> list[Finding]:
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


def reference_validator(schema: dict[str, Any]) -> Validator:
    """A validator for `schema` in the draft it names, ECMA-262 patterns, nothing fetched."""
    cls = dialect_of(schema) or DEFAULT_DIALECT
    return with_ecma_regex(cls)(schema, registry=_NO_RETRIEVAL)


def check_arguments(schema: dict[str, Any], arguments: Any) -> list[Finding]:
    """Each way `arguments` breaks `schema`, read in the draft the schema names."""
    validator = reference_validator(schema)
    try:
        return [f for error in validator.iter_errors(arguments) for f in describe(error)]
    except Unresolvable as exc:  # a reference form the static check above does not model
        return [Finding((), f"cannot check this example: a $ref does not resolve ({exc})")]
    except RecursionError:
        return [Finding((), "cannot check this example: the schema's $refs loop without end")]
