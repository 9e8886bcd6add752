"""Plain manifest data + its source map → every problem, as located diagnostics.

Checks, in order: the manifest against its own schema (`schema.json`); each tool's input and
output schema (dialect, metaschema, MCP top level, `$ref`s, regexes); each example against its
tool's input schema; then the rules across tools (unique names, Python name collisions, renames).
Nothing raises: each check returns findings, and one function turns findings into diagnostics.
"""

from __future__ import annotations

import dataclasses
import json
import keyword
import re
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcpgen.core import names
from mcpgen.errors import Diagnostic
from mcpgen.manifest import fast_verdict
from mcpgen.manifest.messages import Finding, describe
from mcpgen.manifest.model import UNIMPLEMENTED_WIRE
from mcpgen.manifest.redos import backtracking_findings
from mcpgen.manifest.sourcemap import JsonPath, SourceMap, format_path
from mcpgen.manifest.tool_schema import check_arguments, check_tool_schema

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

# The catalog's sections; the rules across them (`catalog_checks`) find nothing without one.
_CATALOG_KEYS = frozenset({"resources", "resource_templates", "resourceTemplates", "prompts"})
_SCHEMA_KEYS = {
    "input": ("input_schema", "inputSchema"),
    "output": ("output_schema", "outputSchema"),
}


@cache
def manifest_json_schema_text() -> str:
    """The manifest's JSON Schema exactly as shipped in the package (next to this module:
    the package is always installed as files, and `importlib.resources` takes a few ms to
    find them)."""
    return Path(__file__).with_name("schema.json").read_text("utf-8")


@cache
def _manifest_validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator  # only for a manifest it rejects

    return Draft202012Validator(json.loads(manifest_json_schema_text()))


def _schema_findings(data: Any, source_map: SourceMap) -> list[Finding]:
    """The manifest against its own schema; jsonschema-rs's acceptance settles it, anything
    else is worded from the reference validator's errors."""
    if fast_verdict.manifest_accepts(manifest_json_schema_text(), data):
        return []
    return [
        finding
        for error in _manifest_validator().iter_errors(data)
        for finding in describe(error, scalar_text=source_map.scalar_text)
    ]


def validate_manifest(
    data: Any, source_map: SourceMap, file: str, root: Path | None = None
) -> list[Diagnostic]:
    """All diagnostics for `data`, sorted by position; `file` is the name shown to the user;
    `root`, the project folder, when resource files are to be checked on disk."""
    findings = _schema_findings(data, source_map)
    tools = data.get("tools") if isinstance(data, dict) else None
    if isinstance(tools, list):
        findings += _tool_findings(tools)
        findings += backtracking_findings(tools)
        if data.get("inline_refs") is True:
            findings += _recursive_refs(tools)
    if isinstance(data, dict) and not _CATALOG_KEYS.isdisjoint(data):
        from mcpgen.manifest.catalog_checks import catalog_findings, file_findings

        findings += catalog_findings(data)
        if root is not None:
            findings += file_findings(data, root)
    if isinstance(data, dict) and isinstance(data.get("version"), str):
        findings += _version_findings(data["version"])
    if isinstance(data, dict) and isinstance(data.get("package"), str):
        findings += _keyword_findings(data["package"], ("package",), "package")
        findings += _shadowing_findings(data["package"])
    if not any(finding.level == "error" for finding in findings):
        findings += _shipping_findings(data)  # about a manifest that works, so only then
    return to_diagnostics(findings, source_map, file)


def to_diagnostics(findings: list[Finding], source_map: SourceMap, file: str) -> list[Diagnostic]:
    """Locate each finding in the source; drop exact repeats; sort by position."""
    located = set()
    for finding in findings:
        where = (
            source_map.key_at(finding.path) if finding.at_key else source_map.value_at(finding.path)
        )
        located.add(
            Diagnostic(file, *where, format_path(finding.path), finding.message, finding.level)
        )
    return sorted(located)


_TOOL_PREFIX = re.compile(r"tools\[(\d+)\]")


def with_tool_names(diagnostics: list[Diagnostic], data: Any) -> list[Diagnostic]:
    """`tools[4].input_schema…` → `tools[4] (invoices.render).input_schema…`.

    In a manifest of 150 tools, the name is what a person looks for, not the index.
    """
    tools = data.get("tools") if isinstance(data, dict) else None
    if not isinstance(tools, list):
        return diagnostics
    named = []
    for diagnostic in diagnostics:
        found = _TOOL_PREFIX.match(diagnostic.path)
        index = int(found.group(1)) if found else -1
        tool = tools[index] if 0 <= index < len(tools) else None
        name = tool.get("name") if isinstance(tool, dict) else None
        if found and isinstance(name, str) and name:
            path = f"{found.group(0)} ({show_name(name)}){diagnostic.path[found.end() :]}"
            named.append(dataclasses.replace(diagnostic, path=path))
        else:
            named.append(diagnostic)
    return named


def show_name(name: str, limit: int = 60) -> str:
    """A tool name as a diagnostic shows it: shortened if very long."""
    return name if len(name) <= limit else f"{name[: limit - 1]}…"


def _tool_findings(tools: list[Any]) -> list[Finding]:
    findings: list[Finding] = []
    named: list[tuple[int, dict[str, Any]]] = []
    for index, tool in enumerate(tools):
        if isinstance(tool, dict):
            findings += _one_tool(tool, ("tools", index))
            if isinstance(tool.get("name"), str):
                named.append((index, tool))
    findings += _duplicate_names(named)
    findings += _python_name_collisions(named)
    findings += _renames(named)
    return findings


def _one_tool(tool: dict[str, Any], path: JsonPath) -> list[Finding]:
    findings: list[Finding] = []
    schemas_ok = True
    for role, keys in _SCHEMA_KEYS.items():
        for key in keys:
            if isinstance(tool.get(key), dict):
                problems = [
                    Finding((*path, key, *f.path), f.message, f.level, f.at_key)
                    for f in check_tool_schema(tool[key], role)
                ]
                findings += problems
                schemas_ok = schemas_ok and not (role == "input" and problems)
    if schemas_ok:
        findings += _example_findings(tool, path)
    if isinstance(tool.get("python_name"), str):
        findings += _keyword_findings(tool["python_name"], (*path, "python_name"), "python_name")
        findings += _module_name_findings(tool["python_name"], (*path, "python_name"))
    if not tool.get("description"):
        message = "no description: hosts show it to the model to decide when to call the tool"
        findings.append(Finding(path, message, level="warning"))
    findings += _unimplemented_properties(tool, path)
    return findings


def _unimplemented_properties(tool: dict[str, Any], path: JsonPath) -> list[Finding]:
    return [
        Finding(
            (*path, u.parent, u.key),
            f"'{u.parent}.{u.key}' will not be published: {u.why}",
            level="warning",
            at_key=True,
        )
        for u in UNIMPLEMENTED_WIRE
        if u.found_in(tool)
    ]


# Modules of the generated package a handler module must not replace or shadow.
_PACKAGE_MODULES = frozenset({"_generated", "handlers"})


def _module_name_findings(name: str, path: JsonPath) -> list[Finding]:
    """A python_name is a module in `handlers/`: it must not be a file Python or mcpgen owns."""
    if name.startswith("__") and name.endswith("__"):
        message = (
            f"python_name '{name}' is a name Python reserves (handlers/{name}.py would be "
            "the package's own file, not a handler); choose another name"
        )
        return [Finding(path, message)]
    if name in _PACKAGE_MODULES:
        message = (
            f"python_name '{name}' is a module the generated package needs "
            f"({', '.join(sorted(_PACKAGE_MODULES))}); choose another name"
        )
        return [Finding(path, message)]
    return []


def _example_findings(tool: dict[str, Any], path: JsonPath) -> list[Finding]:
    """Each example's arguments against the input schema (only once that schema is sound)."""
    schema = next((tool[k] for k in _SCHEMA_KEYS["input"] if isinstance(tool.get(k), dict)), None)
    examples = tool.get("examples")
    if schema is None or not isinstance(examples, list):
        return []
    findings = []
    for index, example in enumerate(examples):
        if isinstance(example, dict) and isinstance(example.get("arguments"), dict):
            where = (*path, "examples", index, "arguments")
            findings += [
                Finding((*where, *f.path), f.message, f.level, f.at_key)
                for f in check_arguments(schema, example["arguments"])
            ]
    return findings


def _keyword_findings(name: str, path: JsonPath, what: str) -> list[Finding]:
    if keyword.iskeyword(name):
        return [Finding(path, f"{what} '{name}' is a Python keyword; choose another name")]
    if name in names.RESERVED_IDENTIFIERS:
        return [
            Finding(
                path,
                f"{what} '{name}' is taken by `from __future__ import {name}` "
                "in the generated modules; choose another name",
            )
        ]
    return []  # valid, or not an identifier: the manifest schema's pattern reports that


def _recursive_refs(tools: list[Any]) -> list[Finding]:
    """With `inline_refs`, recursive references stay as `$ref`: say which."""
    from mcpgen.schema.refs import inline_refs

    findings = []
    for index, tool in enumerate(tools):
        for key in (*_SCHEMA_KEYS["input"], *_SCHEMA_KEYS["output"]):
            schema = tool.get(key) if isinstance(tool, dict) else None
            if isinstance(schema, dict):
                for ref in inline_refs(schema).recursive:
                    message = f"recursive $ref '{ref}' cannot be inlined; it is published as is"
                    findings.append(Finding(("tools", index, key), message, level="warning"))
    return findings


def _shipping_findings(data: Any) -> list[Finding]:
    """Warnings about where the server goes: host limits, server.json's text limits."""
    from mcpgen.manifest.host_limits import host_limit_findings
    from mcpgen.manifest.registry_limits import registry_findings

    return host_limit_findings(data) + registry_findings(data)


def _version_findings(version: str) -> list[Finding]:
    """The version becomes the Python project's: it must be PEP 440 or `pip install` fails."""
    from packaging.version import InvalidVersion, Version

    try:
        Version(version)
    except InvalidVersion:
        message = f"'{version}' is not a Python (PEP 440) version; write it like 1.0.0 or 2.1b1"
        return [Finding(("version",), message)]
    return []


def _shadowing_findings(package: str) -> list[Finding]:
    if package not in names.RESERVED_PACKAGES:
        return []
    return [
        Finding(
            ("package",),
            f"package '{package}' would shadow the module of the same "
            f"name the server imports; choose another, e.g. '{package}_server'",
        )
    ]


def _duplicate_names(named: list[tuple[int, dict[str, Any]]]) -> list[Finding]:
    first: dict[str, int] = {}
    findings = []
    for index, tool in named:
        name = tool["name"]
        if name in first:
            message = f"duplicate tool name '{name}' (also tools[{first[name]}])"
            findings.append(Finding(("tools", index, "name"), message))
        else:
            first[name] = index
    return findings


def _python_name_collisions(named: list[tuple[int, dict[str, Any]]]) -> list[Finding]:
    """One error per group of distinct tools that end up with the same Python name, or with
    Python names that give the same model class names (`item_2` and `item2`: `Item2Input`)."""
    groups: dict[str, dict[str, tuple[int, str]]] = defaultdict(dict)
    for index, tool in named:
        chosen = tool.get("python_name")
        python = chosen if isinstance(chosen, str) else names.python_identifier(tool["name"])
        # The same name twice is a duplicate, reported as such, not a collision.
        groups[names.class_name(python)].setdefault(tool["name"], (index, python))
    findings = []
    for class_stem, members in groups.items():
        if len(members) < 2:
            continue
        listed = _and([f"'{name}' (tools[{index}])" for name, (index, _) in members.items()])
        pythons = sorted({python for _, python in members.values()})
        what = (
            f"the Python name '{pythons[0]}'"
            if len(pythons) == 1
            else f"the Python names {_and([repr(p) for p in pythons])}, "
            f"whose models are both named '{class_stem}Input'"
        )
        message = f"tools {listed} all get {what}; give all but one of them a `python_name:`"
        second = list(members.values())[1][0]
        findings.append(Finding(("tools", second, "name"), message))
    return findings


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _renames(named: list[tuple[int, dict[str, Any]]]) -> list[Finding]:
    current = {tool["name"] for _, tool in named}
    claimed: dict[str, int] = {}
    findings = []
    for index, tool in named:
        old = tool.get("renamed_from")
        olds = [old] if isinstance(old, str) else old if isinstance(old, list) else []
        for position, former in enumerate(olds):
            if not isinstance(former, str):
                continue
            path: JsonPath = ("tools", index, "renamed_from")
            if isinstance(old, list):
                path = (*path, position)
            if former in current:
                findings.append(
                    Finding(
                        path,
                        f"'{former}' is still the name of a tool; "
                        "renamed_from lists names no tool has any more",
                    )
                )
            elif former in claimed and claimed[former] != index:
                findings.append(
                    Finding(path, f"'{former}' is also in renamed_from of tools[{claimed[former]}]")
                )
            claimed.setdefault(former, index)
    return findings
