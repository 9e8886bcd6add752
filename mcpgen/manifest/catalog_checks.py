"""Rules for resources, resource templates and prompts that the manifest's schema cannot say.

Unique names and URIs, URIs with a scheme, RFC 6570 templates whose variables match their
`parameters`, MIME types, project-relative files, prompt placeholders that name declared
arguments, and handler module names that no two entries (tools included) share.
"""

from __future__ import annotations

import keyword
import os
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcpgen.core import names
from mcpgen.core.relpath import lexical_problem, outside_reason
from mcpgen.manifest.messages import Finding
from mcpgen.manifest.model import COMPLETION_HANDLER, completion_module
from mcpgen.manifest.sourcemap import JsonPath
from mcpgen.runtime.catalog.uri_template import ambiguities, query_misplaced

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_TOKEN = r"[A-Za-z0-9!#$&^_.+-]+"
_MIME = re.compile(rf"^{_TOKEN}/{_TOKEN}(\s*;.*)?$")
# One RFC 6570 expression: an optional operator, then comma-separated variables, each with
# an optional prefix (`:3`) or explode (`*`) modifier.
_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^{}]*)\}")
_VARIABLE = re.compile(
    r"^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(\*|:[1-9][0-9]{0,3})?$"
)
TEMPLATE_KEYS = ("resource_templates", "resourceTemplates")
# A `file:` resource over this size gets a warning: it sits in the server's memory and goes
# whole into every read.
LARGE_FILE_BYTES = 1024 * 1024


def template_variables(template: str) -> tuple[list[str], str | None]:
    """The variables of an RFC 6570 template, in order, and the first problem found."""
    found: list[str] = []
    rest = _EXPRESSION.sub("", template)
    if "{" in rest or "}" in rest:
        return found, "has an unmatched '{' or '}'"
    for match in _EXPRESSION.finditer(template):
        for part in match.group(2).split(","):
            variable = _VARIABLE.match(part)
            if variable is None:
                return found, f"has an invalid variable {part!r} in {match.group(0)!r}"
            found.append(variable.group(1))
    return found, None


def _entries(data: dict[str, Any], key: str) -> Iterator[tuple[JsonPath, dict[str, Any]]]:
    items = data.get(key)
    if isinstance(items, list):
        for index, item in enumerate(items):
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                yield (key, index), item


def _template_key(data: dict[str, Any]) -> str:
    return next((k for k in TEMPLATE_KEYS if k in data), TEMPLATE_KEYS[0])


def _alias(item: dict[str, Any], key: str, wire_key: str) -> Any:
    return item[key] if key in item else item.get(wire_key)


def catalog_findings(data: dict[str, Any]) -> list[Finding]:
    """Every problem in the manifest's resources, templates and prompts.

    Only problems of those sections: `validate_manifest` skips this module for a manifest
    that has none of them.
    """
    findings: list[Finding] = []
    if all(k in data for k in TEMPLATE_KEYS):
        message = "write `resource_templates` or `resourceTemplates`, not both"
        findings.append(Finding((TEMPLATE_KEYS[1],), message, at_key=True))
    resources = list(_entries(data, "resources"))
    templates = list(_entries(data, _template_key(data)))
    prompts = list(_entries(data, "prompts"))
    findings += _unique(resources, "name", "resource name")
    findings += _unique(resources, "uri", "resource URI")
    findings += _unique(templates, "name", "resource template name")
    findings += _unique(prompts, "name", "prompt name")
    for path, resource in resources:
        findings += _resource(path, resource)
    for path, template in templates:
        findings += _template(path, template)
    for path, prompt in prompts:
        findings += _prompt(path, prompt)
    findings += _shared_handler_modules(data, resources, templates, prompts)
    for kind, entries in (("resource", resources), ("resource template", templates)):
        findings += _renames(entries, kind)
    findings += _renames(prompts, "prompt")
    return findings


def _former_names(item: dict[str, Any], path: JsonPath) -> Iterator[tuple[JsonPath, str]]:
    old = item.get("renamed_from")
    if isinstance(old, str):
        yield (*path, "renamed_from"), old
    elif isinstance(old, list):
        for position, former in enumerate(old):
            if isinstance(former, str):
                yield (*path, "renamed_from", position), former


def _renames(entries: list[tuple[JsonPath, dict[str, Any]]], kind: str) -> list[Finding]:
    """`renamed_from` names former names of the same kind: none still in use, none claimed
    by two entries (either would leave the next run unable to tell whose handler it is)."""
    current = {item["name"] for _, item in entries}
    claimed: dict[str, JsonPath] = {}
    findings = []
    for path, item in entries:
        for where, former in _former_names(item, path):
            if former in current:
                message = (
                    f"'{former}' is still the name of a {kind}; "
                    "renamed_from lists names no entry has any more"
                )
                findings.append(Finding(where, message))
            elif former in claimed and claimed[former][:2] != path:
                other = f"{claimed[former][0]}[{claimed[former][1]}]"
                findings.append(Finding(where, f"'{former}' is also in renamed_from of {other}"))
            claimed.setdefault(former, path)
    return findings


def _unique(entries: list[tuple[JsonPath, dict[str, Any]]], key: str, what: str) -> list[Finding]:
    first: dict[str, JsonPath] = {}
    findings = []
    for path, item in entries:
        value = item.get(key)
        if not isinstance(value, str):
            continue
        if value in first:
            where = f"{first[value][0]}[{first[value][1]}]"
            findings.append(Finding((*path, key), f"duplicate {what} '{value}' (also {where})"))
        else:
            first[value] = path
    return findings


def _mime(path: JsonPath, item: dict[str, Any]) -> list[Finding]:
    key = "mime_type" if "mime_type" in item else "mimeType"
    value = item.get(key)
    if isinstance(value, str) and not _MIME.match(value):
        return [Finding((*path, key), f"'{value}' is not a MIME type (type/subtype)")]
    return []


def _resource(path: JsonPath, resource: dict[str, Any]) -> list[Finding]:
    findings = _mime(path, resource)
    if "text" in resource and "file" in resource:
        message = "a resource has static `text` or a `file`, not both"
        findings.append(Finding((*path, "file"), message, at_key=True))
    uri = resource.get("uri")
    if isinstance(uri, str) and not _SCHEME.match(uri):
        findings.append(Finding((*path, "uri"), f"'{uri}' is not a URI: it needs a scheme"))
    file = resource.get("file")
    if isinstance(file, str) and (problem := lexical_problem(file)) is not None:
        message = f"the file must be a path inside the project, not {problem}"
        findings.append(Finding((*path, "file"), message))
    return findings


def _template(path: JsonPath, template: dict[str, Any]) -> list[Finding]:
    findings = _mime(path, template)
    key = "uri_template" if "uri_template" in template else "uriTemplate"
    text = template.get(key)
    if not isinstance(text, str):
        return findings
    variables, problem = template_variables(text)
    if problem is not None:
        return [*findings, Finding((*path, key), f"the URI template {problem}")]
    if not _SCHEME.match(text):
        findings.append(Finding((*path, key), f"'{text}' is not a URI template: it needs a scheme"))
    if not variables:
        findings.append(Finding((*path, key), "the URI template has no {variable}"))
    if len(set(variables)) != len(variables):
        findings.append(Finding((*path, key), "the URI template repeats a variable"))
    findings += _matching(path, key, text)
    findings += _raw_variables(path, template, variables)
    findings += [
        Finding((*path, key), f"the variable {{{name}}} {problem}")
        for name in dict.fromkeys(variables)
        if (problem := _parameter_problem(name)) is not None
    ]
    for what in ("parameters", "completions"):
        declared = template.get(what)
        if not isinstance(declared, dict):
            continue
        for name, value in declared.items():
            if name not in variables:
                message = f"'{name}' is not a variable of {text!r} ({', '.join(variables)})"
                findings.append(Finding((*path, what, name), message, at_key=True))
            elif what == "parameters":
                findings += _parameter_schema((*path, what, name), value)
    return findings


def _matching(path: JsonPath, key: str, text: str) -> list[Finding]:
    """How the server turns a URI around: query expressions last, one split per URI."""
    if query_misplaced(text):
        message = "a {?...} or {&...} expression must come last in the URI template"
        return [Finding((*path, key), message)]
    return [
        Finding(
            (*path, key),
            f"the URI template is ambiguous: {problem}, so which part of a URI goes to which "
            "is a guess (the server gives the first as much as it can); put a literal "
            "between them or make one a plain {var}",
            level="warning",
        )
        for problem in ambiguities(text)
    ]


def _parameter_problem(name: str) -> str | None:
    """Why `name` cannot be a parameter of the handler it is passed to, if it cannot."""
    if not name.isidentifier() or not name.isascii():
        return "is passed to the handler by name: it must be a Python identifier"
    if keyword.iskeyword(name):
        return "is passed to the handler by name: it must not be a Python keyword"
    if name == "ctx":
        return "is passed to the handler by name: `ctx` is the context's parameter"
    return None


def _raw_variables(path: JsonPath, template: dict[str, Any], variables: list[str]) -> list[Finding]:
    names = template.get("raw")
    if not isinstance(names, list):
        return []
    return [
        Finding((*path, "raw", index), f"'{name}' is not a variable of the URI template")
        for index, name in enumerate(names)
        if isinstance(name, str) and name not in variables
    ]


def _parameter_schema(path: JsonPath, schema: Any) -> list[Finding]:
    # Imported here: only a resource template with parameters needs it.
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return [Finding(path, f"not a valid JSON Schema: {exc.message}")]
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind not in (None, "string", "integer", "number", "boolean"):
        message = f"a template variable is a string, a number or a boolean, not {kind!r}"
        return [Finding((*path, "type"), message)]
    if not isinstance(schema, dict):
        return []
    from mcpgen.manifest.tool_schema import openapi_findings

    return [
        Finding((*path, *found.path), found.message, found.level, found.at_key)
        for found in openapi_findings(schema)
    ]


def _prompt(path: JsonPath, prompt: dict[str, Any]) -> list[Finding]:
    arguments = prompt.get("arguments")
    declared: list[str] = []
    findings = []
    if isinstance(arguments, list):
        for index, argument in enumerate(arguments):
            name = argument.get("name") if isinstance(argument, dict) else None
            if not isinstance(name, str):
                continue
            if name in declared:
                message = f"duplicate argument name '{name}'"
                findings.append(Finding((*path, "arguments", index, "name"), message))
            # (The manifest's schema already wants an identifier: keywords and `ctx` remain.)
            elif (
                _needs_handler("prompts", prompt)
                and name.isidentifier()
                and (problem := _parameter_problem(name))
            ):
                message = f"the argument '{name}' {problem}"
                findings.append(Finding((*path, "arguments", index, "name"), message))
            declared.append(name)
    template = prompt.get("template")
    if isinstance(template, str):
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
        except ValueError as exc:
            message = f"the template is not a format string ({exc}); write '{{{{' for a brace"
            return [*findings, Finding((*path, "template"), message)]
        for field in fields:
            root = re.split(r"[.\[]", field, maxsplit=1)[0]
            if root not in declared:
                known = ", ".join(declared) or "none declared"
                message = f"the placeholder {{{field}}} names no argument ({known})"
                findings.append(Finding((*path, "template"), message))
            elif root != field:
                message = f"the placeholder {{{field}}} must name an argument, nothing more"
                findings.append(Finding((*path, "template"), message))
    return findings


def _completed_by_handler(kind: str, item: dict[str, Any]) -> list[str]:
    """The arguments (template variables) whose completions a handler gives."""
    if kind == "prompts":
        arguments = item.get("arguments")
        listed = arguments if isinstance(arguments, list) else []
        return [
            a["name"]
            for a in listed
            if isinstance(a, dict)
            and isinstance(a.get("name"), str)
            and a.get("completions") == COMPLETION_HANDLER
        ]
    completions = item.get("completions")
    if kind == "resources" or not isinstance(completions, dict):
        return []
    return [str(k) for k, v in completions.items() if v == COMPLETION_HANDLER]


def _modules_of(kind: str, item: dict[str, Any]) -> list[tuple[str, str]]:
    """(module, what) for each handler module the entry needs."""
    chosen = item.get("python_name")
    python = chosen if isinstance(chosen, str) else names.python_identifier(item["name"])
    found = [(python, "handler")] if _needs_handler(kind, item) else []
    found += [
        (completion_module(python, argument), f"completion handler of '{argument}'")
        for argument in _completed_by_handler(kind, item)
    ]
    return found


def _needs_handler(kind: str, item: dict[str, Any]) -> bool:
    if kind == "resources":
        return "text" not in item and "file" not in item
    if kind == "prompts":
        return "template" not in item
    return True


def _shared_handler_modules(
    data: dict[str, Any], *groups: list[tuple[JsonPath, dict[str, Any]]]
) -> list[Finding]:
    """Handlers share `handlers/`: two entries whose modules have the same name collide."""
    taken: dict[str, JsonPath] = {}
    for path, tool in _entries(data, "tools"):
        chosen = tool.get("python_name")
        taken.setdefault(
            chosen if isinstance(chosen, str) else names.python_identifier(tool["name"]), path
        )
    findings = []
    for group in groups:
        for path, item in group:
            for python, what in _modules_of(str(path[0]), item):
                if python in taken:
                    other = f"{taken[python][0]}[{taken[python][1]}]"
                    message = (
                        f"its {what} module 'handlers/{python}.py' is also {other}'s; "
                        "give one of them a `python_name:`"
                    )
                    findings.append(Finding((*path, "name"), message))
                else:
                    taken[python] = path
    return findings


def file_findings(data: dict[str, Any], root: Path) -> list[Finding]:
    """Each resource `file` exists under `root` and no symlink on its way leads out."""
    findings = []
    for path, resource in _entries(data, "resources"):
        file = resource.get("file")
        if not isinstance(file, str) or lexical_problem(file) is not None:
            continue
        if (reason := outside_reason(root, file)) is not None:
            findings.append(Finding((*path, "file"), f"the file is outside the project: {reason}"))
        elif os.path.islink(root / file) or not (root / file).is_file():
            message = f"no file '{file}' in the project (a regular file, next to mcpgen.yaml)"
            findings.append(Finding((*path, "file"), message))
        elif (size := (root / file).stat().st_size) > LARGE_FILE_BYTES:
            message = (
                f"the file is {size} bytes: it is built into the server and sent whole on "
                "every read (over the server's --max-result-bytes it is refused); "
                "serve a large file from a handler, or a resource link to it"
            )
            findings.append(Finding((*path, "file"), message, level="warning"))
    return findings
