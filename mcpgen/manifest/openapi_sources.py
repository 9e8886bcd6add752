"""The manifest's `openapi:` entries → the API sources, their tools and their env vars.

Runs after the manifest itself validated: each entry's spec is read from the project (never
from outside it), converted by `mcpgen.openapi`, and its tools are checked against the
manifest's own tools and each other (names, Python names). Problems in a spec are located in
that spec file; problems in an entry, in the manifest.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcpgen.core import names
from mcpgen.errors import Diagnostic
from mcpgen.manifest.messages import Finding
from mcpgen.manifest.model import EnvVar, OpenApiSource, Tool
from mcpgen.manifest.sourcemap import JsonPath, SourceMap
from mcpgen.manifest.validate import to_diagnostics

if TYPE_CHECKING:  # `mcpgen.openapi` loads with the first source only
    from mcpgen.openapi.source import ImportedTool
    from mcpgen.openapi.spec_file import SpecDocument

# What the tools/list answer of a catalog may weigh before hosts and models struggle: hosts
# send every tool's definition with every request, and 400 kB is about 100,000 tokens.
TOOLS_LIST_BYTES = 400_000


@dataclass
class ImportedApis:
    """Every source of a manifest, expanded."""

    apis: list[OpenApiSource] = field(default_factory=list)
    tools: list[ImportedTool] = field(default_factory=list)
    env: list[EnvVar] = field(default_factory=list)

    def manifest_tools(self) -> tuple[Tool, ...]:
        """The imported tools as the manifest model holds them."""
        return tuple(as_tool(t) for t in self.tools)

    def unique_env(self) -> tuple[EnvVar, ...]:
        """Each variable once, as the first source that reads it describes it."""
        seen: dict[str, EnvVar] = {}
        for var in self.env:
            seen.setdefault(var.name, var)
        return tuple(seen.values())


def as_tool(tool: ImportedTool) -> Tool:
    """One imported tool as a manifest `Tool`."""
    return Tool(
        name=tool.name,
        python_name=tool.python_name or names.python_identifier(tool.name),
        title=tool.title,
        description=tool.description,
        input_schema=tool.input_schema,
        output_schema=tool.output_schema,
        annotations=tool.annotations,
        timeout=tool.timeout,
        binding=tool.binding,
        output_validation=tool.output_validation,
        api=tool.api,
    )


def expand_sources(
    data: dict[str, Any], source_map: SourceMap, file: str, root: Path
) -> tuple[ImportedApis, list[Diagnostic]]:
    """The sources of validated manifest `data`, and every problem found on the way."""
    from mcpgen.openapi.source import tools_from_source

    imported = ImportedApis()
    diagnostics: list[Diagnostic] = []
    findings: list[Finding] = []
    keys: dict[str, int] = {}
    tool_source: list[int] = []
    for index, entry in enumerate(data.get("openapi") or []):
        spec = entry["spec"]
        label = os.path.normpath(os.path.join(os.path.dirname(file), spec))
        result = tools_from_source(root, entry, spec_label=label)
        diagnostics += result.diagnostics
        findings += [
            Finding(("openapi", index, *p.path), p.message, p.level, p.at_key)
            for p in result.problems
        ]
        if not result.key:
            continue
        if result.key in keys:
            where: JsonPath = ("openapi", index, "name" if "name" in entry else "spec")
            message = (
                f"API name '{result.key}' is also openapi[{keys[result.key]}]'s; "
                "give this entry another `name:`"
            )
            findings.append(Finding(where, message))
        keys.setdefault(result.key, index)
        source = _source(result.key, entry, result.base_url, result.spec_sha256)
        imported.apis.append(source)
        imported.env += _env_vars(source)
        imported.tools += result.tools
        tool_source += [index] * len(result.tools)
        if result.document is not None:
            diagnostics += _schema_diagnostics(result.tools, result.document)
    findings += _name_findings(data, imported.tools, tool_source)
    findings += _size_findings(data, imported.tools, tool_source)
    findings += _host_name_findings(data, imported.tools, tool_source)
    return imported, diagnostics + to_diagnostics(findings, source_map, file)


def _source(key: str, entry: dict[str, Any], base_url: str, digest: str) -> OpenApiSource:
    auth = entry.get("auth")
    if auth == "passthrough":
        auth = {"passthrough": True}
    return OpenApiSource(
        key=key,
        spec=entry["spec"],
        base_url=base_url,
        base_url_env=f"{key.upper()}_BASE_URL",
        auth=auth,
        timeout=float(entry.get("timeout", 30.0)),
        retries=int(entry.get("retries", 2)),
        spec_sha256=digest,
    )


def auth_env_vars(auth: Any) -> list[str]:
    """The environment variables one `auth:` form reads."""
    if not isinstance(auth, dict):
        return []
    if "bearer_env" in auth:
        return [auth["bearer_env"]]
    if "env" in auth:
        return [auth["env"]]
    return list(auth.get("basic_env") or [])


def _env_vars(source: OpenApiSource) -> list[EnvVar]:
    api = f"the {source.key} API"
    found = [
        EnvVar(
            name=source.base_url_env,
            description=f"Base URL of {api} (default {source.base_url})",
            default=source.base_url or None,
        )
    ]
    secrets = auth_env_vars(source.auth)
    what = ["user name", "password"] if len(secrets) == 2 else ["credential"]
    found += [
        EnvVar(name=var, description=f"{api}: {role} sent with every call", secret=True)
        for var, role in zip(secrets, what, strict=False)
    ]
    return found


def _where(tool: ImportedTool, index: int) -> JsonPath:
    """Where the manifest decides a tool's name: its override's `name`, else the entry."""
    if tool.renamed:
        return ("openapi", index, "overrides", tool.operation, "name")
    return ("openapi", index, "spec")


def _name_findings(
    data: dict[str, Any], tools: list[ImportedTool], tool_source: list[int]
) -> list[Finding]:
    """Imported names must not clash with written tools' names, nor with each other's,
    nor give the same Python model names."""
    taken: dict[str, str] = {}
    python_taken: dict[str, str] = {}
    for position, written in enumerate(data.get("tools") or []):
        name = written.get("name")
        if isinstance(name, str):
            taken[name] = f"tools[{position}]"
            python = written.get("python_name") or names.python_identifier(name)
            python_taken[names.class_name(python)] = f"tools[{position}]"
    findings = []
    for tool, index in zip(tools, tool_source, strict=True):
        origin = f"openapi[{index}] operation '{tool.operation}'"
        fix = f"rename it with `overrides: {{{json.dumps(tool.operation)}: {{name: ...}}}}`"
        python = tool.python_name or names.python_identifier(tool.name)
        stem = names.class_name(python)
        if not names.is_identifier(python) or python in names.RESERVED_IDENTIFIERS:
            where = ("openapi", index, "overrides", tool.operation, "python_name")
            findings.append(Finding(where, f"python_name '{python}' is a Python keyword or taken"))
        if tool.name in taken:
            message = f"tool '{tool.name}' from {origin} has the name of {taken[tool.name]}; {fix}"
            findings.append(Finding(_where(tool, index), message))
        elif stem in python_taken:
            message = (
                f"tool '{tool.name}' from {origin} gets the Python models "
                f"'{stem}Input'/'{stem}Output' of {python_taken[stem]}; {fix}"
            )
            findings.append(Finding(_where(tool, index), message))
        taken.setdefault(tool.name, origin)
        python_taken.setdefault(stem, origin)
    return findings


def _size_findings(
    data: dict[str, Any], tools: list[ImportedTool], tool_source: list[int]
) -> list[Finding]:
    """Warnings when the catalog is more than hosts handle, at the entry that brings most."""
    from mcpgen.manifest.host_limits import TOOL_COUNT_LIMITS

    if not tools:
        return []
    written = data.get("tools") or []
    count = len(written) + len(tools)
    biggest = max(set(tool_source), key=tool_source.count)
    where: JsonPath = ("openapi", biggest, "spec")
    advice = (
        "import fewer operations: `include:` or `tags:` on the entry "
        "(`mcpgen import openapi SPEC --tags ...` / `--include ...`)"
    )
    findings = []
    over = [f"{title} {limit}" for _, title, limit in TOOL_COUNT_LIMITS if count > limit]
    if over:
        message = f"{count} tools, more than hosts use at once ({', '.join(over)}); {advice}"
        findings.append(Finding(where, message, "warning"))
    size = sum(len(json.dumps(as_tool(t).wire(), separators=(",", ":"))) for t in tools)
    size += sum(len(json.dumps(t, separators=(",", ":"))) for t in written)
    if size > TOOLS_LIST_BYTES:
        message = (
            f"the tools/list answer is about {size // 1000:,} kB (about {size // 4000:,}k tokens), "
            f"sent to the model with every request; hosts and models handle up to about "
            f"{TOOLS_LIST_BYTES // 1000} kB; {advice}"
        )
        findings.append(Finding(where, message, "warning"))
    return findings


def _host_name_findings(
    data: dict[str, Any], tools: list[ImportedTool], tool_source: list[int]
) -> list[Finding]:
    """One warning per entry and host limit that imported names hit, naming a few of them
    (a thousand-operation spec would otherwise print a thousand lines)."""
    from mcpgen.manifest.host_limits import host_label, name_warnings

    server = names.distribution_name(data["name"])
    hit: dict[tuple[int, str], list[str]] = {}
    for tool, index in zip(tools, tool_source, strict=True):
        for warning in name_warnings(server, tool.name):
            hit.setdefault((index, host_label(warning.host)), []).append(tool.name)
    findings = []
    for (index, host), tool_names in sorted(hit.items()):
        shown = ", ".join(tool_names[:3]) + (", …" if len(tool_names) > 3 else "")
        message = (
            f"{host}: {len(tool_names)} imported tool name(s) are too long or not accepted "
            f"there ({shown}); shorten them with `overrides: {{OPERATION: {{name: ...}}}}`, "
            "or check `mcpgen hosts` for each one"
        )
        findings.append(Finding(("openapi", index, "spec"), message, "warning"))
    return findings


MAX_SCHEMA_WARNINGS = 10  # per source: a big spec's repeated quirk is said a few times


def _schema_diagnostics(tools: list[ImportedTool], document: SpecDocument) -> list[Diagnostic]:
    """The checks every tool schema gets (metaschema, MCP's top level, regexes), located at
    the operation in the spec: the schema was assembled from several places of it."""
    from mcpgen.manifest.sourcemap import format_path
    from mcpgen.manifest.tool_schema import check_tool_schema

    found: list[Diagnostic] = []
    warnings = 0
    for tool in tools:
        for role, schema in (("input", tool.input_schema), ("output", tool.output_schema)):
            for finding in check_tool_schema(schema, role) if schema is not None else ():
                if finding.level == "warning":
                    warnings += 1
                    if warnings > MAX_SCHEMA_WARNINGS:
                        continue
                where = f" at {format_path(finding.path)}" if finding.path else ""
                message = f"tool '{tool.name}', {role} schema{where}: {finding.message}"
                found.append(document.diagnostic(tool.spec_where, message, finding.level))
    if warnings > MAX_SCHEMA_WARNINGS:
        message = f"… and {warnings - MAX_SCHEMA_WARNINGS} more warnings about tool schemas"
        found.append(document.diagnostic((), message, "warning"))
    return found
