"""One OpenAPI schema object → the same constraints in JSON Schema 2020-12 (one level).

OpenAPI 3.0 speaks a dialect of draft-05: `nullable: true` instead of a `null` type,
boolean `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum`, one `example`
instead of `examples`, and `$ref` replacing its siblings. 3.1 schemas are JSON Schema 2020-12
already; only `example` (deprecated there) and a leftover `nullable: true` are rewritten.
Keywords JSON Schema does not know and no validator applies are dropped: `discriminator`
(the `oneOf` branches decide anyway), `xml`, `externalDocs` and every `x-` extension, so the
published schema says only what is checked. Subschemas are converted by the caller
(`refs.SpecRefs`), which walks them.
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

# Keys of OpenAPI's schema object that are not JSON Schema: no validator applies them.
DROPPED = frozenset({"discriminator", "xml", "externalDocs", "nullable", "example"})
# Siblings of a 3.0 `$ref` that are kept: annotations, harmless beside the reference.
REF_ANNOTATIONS = frozenset({"description", "title", "deprecated", "readOnly", "writeOnly"})


def convert_keywords(schema: JSON, version: str) -> JSON:
    """`schema`'s own keywords in 2020-12 spelling; subschemas are left as they are."""
    if version == "3.0" and "$ref" in schema:
        schema = {k: v for k, v in schema.items() if k == "$ref" or k in REF_ANNOTATIONS}
    converted: JSON = {
        key: value
        for key, value in schema.items()
        if key not in DROPPED and not key.startswith("x-")
    }
    if "example" in schema and "examples" not in schema:
        converted["examples"] = [schema["example"]]
    if version == "3.0":
        for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            flag = converted.get(bound)
            if isinstance(flag, bool):
                del converted[bound]
                if flag and limit in converted:
                    converted[bound] = converted.pop(limit)
        if converted.get("format") in ("binary", "byte", "base64") and "type" not in converted:
            converted["type"] = "string"
    if schema.get("nullable") is True:
        # 3.1 dropped `nullable`, yet documents written as 3.1 still use it, meaning null is
        # allowed (and mock servers answer null there): it is honoured in both versions.
        converted = _nullable(converted)
    return converted


def _nullable(schema: JSON) -> JSON:
    """`nullable: true` as JSON Schema says it: `null` among the types (and the enum)."""
    kind = schema.get("type")
    if isinstance(kind, str) and "$ref" not in schema:
        widened = {**schema, "type": [kind, "null"]}
        if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
            widened["enum"] = [*schema["enum"], None]
        return widened
    if isinstance(kind, list):
        return {**schema, "type": [*kind, "null"]} if "null" not in kind else schema
    annotations: JSON = {k: schema[k] for k in ("title", "description") if k in schema}
    rest = {k: v for k, v in schema.items() if k not in annotations}
    if not rest:
        return schema  # an empty schema accepts null already
    return {**annotations, "anyOf": [rest, {"type": "null"}]}
