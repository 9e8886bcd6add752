"""One operation of an OpenAPI document → a tool draft: schemas, annotations and binding.

Parameters keep their spec names as argument names; a JSON object body with plain
properties is flattened into top-level arguments, any other body is one argument `body`.
A later argument that would take a name already used is renamed `<in>_<name>` (a parameter)
or `body_<name>` (a body property), and the binding records which argument feeds which
name on the wire. The output schema is the first 2xx JSON response's, wrapped as
`{"result": ...}` when it is not an object (MCP's structured content must be one).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from mcpgen.openapi.local_defs import prune_defs, tidy_defs
from mcpgen.openapi.refs import RefError, SpecRefs
from mcpgen.openapi.schema30 import JSON
from mcpgen.openapi.spec_file import JsonPath

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
# Header parameters OpenAPI says are ignored: the HTTP client and the auth settings own them.
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_DEFAULT_STYLE = {"query": "form", "cookie": "form", "path": "simple", "header": "simple"}
_FORM = "application/x-www-form-urlencoded"
_MULTIPART = "multipart/form-data"
DESCRIPTION_LIMIT = 1000  # characters: hosts send every description with every request
WRAP_KEY = "result"


class OperationSkipped(Exception):
    """The operation cannot become a tool; the message says why (a warning, not an error)."""


@dataclass
class ToolDraft:
    """A tool made from one operation, before the source's overrides apply."""

    key: str  # the operationId, or "METHOD /path" without one
    name: str
    method: str  # upper case
    path: str
    where: JsonPath  # the operation in the spec
    tags: tuple[str, ...]
    title: str | None
    description: str | None
    input_schema: JSON
    output_schema: JSON | None  # as a strict tool publishes it
    annotations: JSON
    binding: JSON
    deprecated: bool = False


def operation_key(operation: JSON, method: str, path: str) -> str:
    """How the manifest names an operation: its operationId, else `GET /pets/{id}`."""
    found = operation.get("operationId")
    return found if isinstance(found, str) and found else f"{method.upper()} {path}"


def draft_tool(
    refs: SpecRefs, path: str, method: str, path_item: JSON, operation: JSON, *, api: str, name: str
) -> ToolDraft:
    """The tool for one operation; OperationSkipped when it cannot be called as a tool,
    RefError when one of its references does not resolve."""
    where: JsonPath = ("paths", path, method)
    arguments = _Arguments()
    parameters = _parameters(refs, path_item, operation)
    wire_parameters = []
    for parameter in parameters:
        location, wire_name = parameter["in"], parameter["name"]
        argument = arguments.claim(wire_name, f"{location}_{wire_name}")
        schema = _parameter_schema(refs, parameter)
        if isinstance(parameter.get("description"), str) and "description" not in schema:
            schema = {**schema, "description": parameter["description"]}
        required = location == "path" or parameter.get("required") is True
        arguments.add(argument, schema, required=required)
        style = parameter.get("style") or _DEFAULT_STYLE.get(location, "form")
        explode = parameter.get("explode")
        wire_parameters.append(
            {
                "name": wire_name,
                "in": location,
                "argument": argument,
                "style": style,
                "explode": bool(explode) if explode is not None else style == "form",
                "required": required,
            }
        )
    body = _body(refs, operation, arguments)
    output_schema, response = _response(refs, operation)
    input_schema = arguments.schema()
    binding: JSON = {
        "api": api,
        "method": method.upper(),
        "path": path,
        "parameters": wire_parameters,
        "body": body,
        "response": response,
        "output_validation": "strict",
        "response_schema": None,
    }
    summary = _text(operation.get("summary"))
    return ToolDraft(
        key=operation_key(operation, method, path),
        name=name,
        method=method.upper(),
        path=path,
        where=where,
        tags=tuple(t for t in operation.get("tags") or () if isinstance(t, str)),
        title=summary,
        description=_deprecated(
            operation,
            describe(summary, _text(operation.get("description")))
            or f"Calls {method.upper()} {path}.",
        ),
        input_schema=_own_copy(tidy_defs(_with_defs(input_schema, arguments.defs))),
        output_schema=_own_copy(tidy_defs(output_schema)) if output_schema else None,
        annotations=annotations_for(method),
        binding=binding,
        deprecated=operation.get("deprecated") is True,
    )


def _own_copy(schema: Any) -> Any:
    """A copy sharing nothing: converted components are shared between tools while they are
    built, and a tool's schema must not change when another's is edited."""
    return json.loads(json.dumps(schema)) if schema is not None else None


def annotations_for(method: str) -> JSON:
    """What the HTTP method promises, as MCP tool annotations."""
    method = method.upper()
    found: JSON = {}
    if method in ("GET", "HEAD", "OPTIONS"):
        found["readOnlyHint"] = True
    if method in ("PUT", "DELETE"):
        found["idempotentHint"] = True
    if method == "DELETE":
        found["destructiveHint"] = True
    found["openWorldHint"] = True
    return found


def describe(summary: str | None, description: str | None) -> str | None:
    """Summary and description as one text, cut at a paragraph or sentence near the limit."""
    if summary and description and not description.startswith(summary.rstrip(".")):
        text = f"{summary.rstrip()}\n\n{description}"
    else:
        text = description or summary or ""
    text = text.strip()
    if not text:
        return None
    if len(text) <= DESCRIPTION_LIMIT:
        return text
    cut = text[: DESCRIPTION_LIMIT - 1]
    for boundary in ("\n\n", ". ", "\n", " "):
        at = cut.rfind(boundary)
        if at > DESCRIPTION_LIMIT // 2:
            cut = cut[: at + (1 if boundary == ". " else 0)]
            break
    return f"{cut.rstrip()} …"


def _deprecated(operation: JSON, description: str) -> str:
    """The description, saying first when the API marks the operation deprecated."""
    return f"Deprecated. {description}" if operation.get("deprecated") is True else description


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


class _Arguments:
    """The input schema's properties, in order, with the names already taken."""

    def __init__(self) -> None:
        self.properties: JSON = {}
        self.required: list[str] = []
        self.defs: dict[str, JSON] = {}

    def claim(self, wanted: str, fallback: str) -> str:
        name = wanted if wanted not in self.properties else fallback
        suffix = 2
        while name in self.properties:
            name = f"{fallback}_{suffix}"
            suffix += 1
        return name

    def add(self, name: str, schema: JSON, *, required: bool) -> None:
        self.properties[name] = schema
        if required:
            self.required.append(name)

    def schema(self) -> JSON:
        schema: JSON = {"type": "object", "properties": self.properties}
        if self.required:
            schema["required"] = self.required
        return schema


def _parameters(refs: SpecRefs, path_item: JSON, operation: JSON) -> list[JSON]:
    """The path item's parameters overridden by the operation's, by (name, in)."""
    merged: dict[tuple[str, str], JSON] = {}
    for source in (path_item.get("parameters") or [], operation.get("parameters") or []):
        for raw in source:
            parameter = refs.deref(raw)
            if not isinstance(parameter, dict):
                continue
            name, location = parameter.get("name"), parameter.get("in")
            if not isinstance(name, str) or location not in _DEFAULT_STYLE:
                continue
            if location == "header" and name.lower() in _IGNORED_HEADERS:
                continue
            merged[(name, location)] = parameter
    return list(merged.values())


def _parameter_schema(refs: SpecRefs, parameter: JSON) -> JSON:
    raw = parameter.get("schema")
    if raw is None and isinstance(parameter.get("content"), dict):
        media = next(iter(parameter["content"].values()), None)
        raw = refs.deref(media).get("schema") if isinstance(media, dict) else None
    if raw is None:
        return {"type": "string"}
    return _converted(refs, raw, "request")


def _converted(refs: SpecRefs, raw: Any, direction: str) -> JSON:
    """A schema converted for one tool; the component schemas it needs ride along in a
    `$defs` key, which `_with_defs` gathers at the top of the tool's schema."""
    schema, defs = refs.schema_for_tool(raw, direction)
    if not isinstance(schema, dict):
        schema = {} if schema is True else {"not": {}}
    if defs:
        schema = {**schema, "$defs": {**schema.get("$defs", {}), **defs}}
    return schema


def _with_defs(schema: JSON, defs: dict[str, JSON]) -> JSON:
    """`schema` with every nested `$defs` collected at its top (all come from the same
    components, so a name means the same schema wherever it was found)."""
    gathered = dict(defs)
    for key, value in schema.get("properties", {}).items():
        if isinstance(value, dict) and "$defs" in value:
            gathered.update(value["$defs"])
            schema["properties"][key] = {k: v for k, v in value.items() if k != "$defs"}
    if gathered:
        schema["$defs"] = dict(sorted(gathered.items()))
    return prune_defs(schema)


def _media(content: Any) -> tuple[str, JSON] | None:
    """The media type mcpgen sends or reads, in order of preference: JSON, form, multipart."""
    if not isinstance(content, dict):
        return None
    keys = [k for k in content if isinstance(k, str)]

    def base(key: str) -> str:
        return key.split(";", maxsplit=1)[0].strip().lower()

    def rank(key: str) -> int:
        kind = base(key)
        if kind == "application/json":
            return 0
        if kind.endswith("+json") or kind == "*/*":
            return 1
        return {_FORM: 2, _MULTIPART: 3}.get(kind, 9)

    for wanted in range(4):
        for key in keys:
            if rank(key) == wanted and isinstance(content[key], dict):
                chosen = "application/json" if base(key) == "*/*" else base(key)
                return chosen, content[key]
    return None


def _body(refs: SpecRefs, operation: JSON, arguments: _Arguments) -> JSON | None:
    raw = operation.get("requestBody")
    if raw is None:
        return None
    body = refs.deref(raw)
    if not isinstance(body, dict):
        return None
    found = _media(body.get("content"))
    if found is None:
        kinds = ", ".join(sorted(str(k) for k in (body.get("content") or {}))) or "none"
        raise OperationSkipped(
            f"its request body is sent as {kinds}; mcpgen sends JSON, form and multipart bodies"
        )
    content_type, media = found
    required = body.get("required") is True
    raw_schema = media.get("schema", {})
    schema = _converted(refs, raw_schema, "request")
    flat = _flattenable(schema)
    if flat is None:
        argument = arguments.claim("body", "request_body")
        if isinstance(body.get("description"), str) and "description" not in schema:
            schema = {**schema, "description": body["description"]}
        arguments.add(argument, schema, required=required)
        if "$defs" in schema:
            arguments.defs.update(schema["$defs"])
            arguments.properties[argument] = {k: v for k, v in schema.items() if k != "$defs"}
        return {"content_type": content_type, "argument": argument}
    properties, body_required, defs = flat
    arguments.defs.update(defs)
    mapping: dict[str, str] = {}
    for wire_name, property_schema in properties.items():
        argument = arguments.claim(wire_name, f"body_{wire_name}")
        arguments.add(argument, property_schema, required=required and wire_name in body_required)
        mapping[argument] = wire_name
    return {"content_type": content_type, "properties": mapping}


def _flattenable(schema: JSON) -> tuple[JSON, list[str], dict[str, JSON]] | None:
    """(properties, required, defs) of a plain object body; None when it must stay whole."""
    defs: dict[str, JSON] = dict(schema.get("$defs", {}))
    target = _resolved_top(schema, defs)
    if target is None or not isinstance(target.get("properties"), dict):
        return None
    kind = target.get("type", "object")
    allowed = set(target) - {"type", "properties", "required", "title", "description", "$defs"}
    extra = target.get("additionalProperties")
    if kind != "object" or allowed - {"additionalProperties"} or extra not in (None, False):
        return None
    if not target["properties"]:
        return None
    required = [r for r in target.get("required", []) if isinstance(r, str)]
    return dict(target["properties"]), required, defs


def _resolved_top(schema: JSON, defs: dict[str, JSON]) -> JSON | None:
    """The schema itself, or the component a bare `$ref` at its top names."""
    ref = schema.get("$ref")
    if ref is None:
        return {k: v for k, v in schema.items() if k != "$defs"}
    if set(schema) - {"$ref", "$defs", "description", "title"}:
        return None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref[len("#/$defs/") :].replace("~1", "/").replace("~0", "~")
        found = defs.get(name)
        return copy.copy(found) if isinstance(found, dict) else None
    return None


def _is_object(schema: JSON, defs: dict[str, JSON], depth: int = 0) -> bool:
    """Whether every value `schema` accepts is a JSON object (so it can be MCP's structured
    content as it is): an object type, an `allOf` with an object branch, or a union whose
    every branch is one."""
    kind = schema.get("type")
    if kind == "object":
        return True
    if depth > 16:  # a union of references that loops: not worth following further
        return False
    if kind is not None or "not" in schema or "enum" in schema or "const" in schema:
        return False
    every = schema.get("allOf")
    if isinstance(every, list) and every:
        # A value must match each branch: one object branch makes every value an object.
        resolved = [_resolved_top(b, defs) if isinstance(b, dict) else None for b in every]
        if any(b is not None and _is_object(b, defs, depth + 1) for b in resolved):
            return True
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list) and branches and "allOf" not in schema:
        resolved = [_resolved_top(b, defs) if isinstance(b, dict) else None for b in branches]
        return all(b is not None and _is_object(b, defs, depth + 1) for b in resolved)
    composed = any(k in schema for k in ("anyOf", "oneOf", "allOf", "$ref"))
    return "properties" in schema and not composed


def _success(responses: Any) -> tuple[str, Any] | None:
    if not isinstance(responses, dict):
        return None
    codes = sorted(str(c) for c in responses if str(c).isdigit() and str(c).startswith("2"))
    codes += [str(c) for c in responses if str(c).upper() == "2XX"]
    for code in codes:
        key = code if code in responses else int(code) if int(code) in responses else code
        return code, responses.get(key)
    return None


def _response(refs: SpecRefs, operation: JSON) -> tuple[JSON | None, JSON]:
    """(output schema as a strict tool publishes it, the binding's `response`)."""
    found = _success(operation.get("responses"))
    if found is None:
        return None, {"wrap": None, "empty": False}
    code, raw = found
    response = refs.deref(raw)
    content = response.get("content") if isinstance(response, dict) else None
    if code == "204" or not content:
        return None, {"wrap": None, "empty": True}
    media = _media(content)
    if media is None or media[0] in (_FORM, _MULTIPART) or "schema" not in media[1]:
        return None, {"wrap": None, "empty": False}
    schema = _converted(refs, media[1]["schema"], "response")
    defs: dict[str, JSON] = dict(schema.get("$defs", {}))
    top = _resolved_top(schema, defs)
    if top is not None and _is_object(top, defs):
        output = {**top, "type": "object"}
        if defs:
            output["$defs"] = dict(sorted(defs.items()))
        return prune_defs(output), {"wrap": None, "empty": False}
    inner = {k: v for k, v in schema.items() if k != "$defs"}
    wrapped: JSON = {
        "type": "object",
        "properties": {WRAP_KEY: inner},
        "required": [WRAP_KEY],
    }
    if defs:
        wrapped["$defs"] = dict(sorted(defs.items()))
    return prune_defs(wrapped), {"wrap": WRAP_KEY, "empty": False}


__all__ = ["METHODS", "OperationSkipped", "RefError", "ToolDraft", "draft_tool", "operation_key"]
