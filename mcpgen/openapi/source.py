"""One `openapi:` entry of a manifest → its tools, with the entry's filters and overrides.

    result = tools_from_source(project_root, entry)

Nothing raises for bad input: problems in the spec file come back as diagnostics located in
that file; problems in the entry (an unknown operationId, a path out of the project) come
back as `EntryProblem`s holding a path inside the entry, which the manifest locates.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpgen.core.relpath import lexical_problem
from mcpgen.errors import Diagnostic, Level, has_errors, suggest
from mcpgen.openapi import naming
from mcpgen.openapi.operations import (
    METHODS,
    OperationSkipped,
    ToolDraft,
    annotations_for,
    draft_tool,
    operation_key,
)
from mcpgen.openapi.refs import RefError, SpecRefs
from mcpgen.openapi.schema30 import JSON
from mcpgen.openapi.spec_file import JsonPath, SpecDocument, SpecUnreadable, read_spec
from mcpgen.openapi.validate import spec_problems, version_of

OUTPUT_VALIDATION = ("strict", "warn", "off")
_IDENTIFIER = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class EntryProblem:
    """A problem with the manifest's entry itself, at `path` inside the entry."""

    path: JsonPath
    message: str
    level: Level = "error"
    at_key: bool = False


@dataclass(frozen=True)
class ImportedTool:
    """A tool ready for the manifest: wire fields, binding, and where it came from."""

    name: str
    operation: str  # the key overrides use: operationId, else "METHOD /path"
    title: str | None
    description: str | None
    input_schema: JSON
    output_schema: JSON | None
    annotations: JSON
    binding: JSON | None  # None: `handler: custom`, a Python handler answers
    output_validation: str
    spec_where: JsonPath  # the operation in the spec
    renamed: bool  # the name comes from an override (its position is in the manifest)
    python_name: str | None = None
    timeout: float | None = None
    api: str | None = None


@dataclass
class SourceResult:
    """What one entry gives: the API's settings, its tools, and every problem found."""

    key: str = ""
    spec: str = ""
    spec_sha256: str = ""
    base_url: str = ""
    title: str = ""
    tools: list[ImportedTool] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # in the spec file
    problems: list[EntryProblem] = field(default_factory=list)  # in the manifest's entry
    document: SpecDocument | None = None  # to locate further problems in the spec


def api_key(title: str | None, spec_path: str) -> str:
    """A Python identifier naming the API: the first telling word of its title ("GitHub's
    official OpenAPI spec" → `github`), else of the spec's file name."""
    for text in (title or "", Path(spec_path).stem):
        plain = re.sub(r"'s\b", "", text.lower())
        words = [w for w in _IDENTIFIER.split(plain) if w and w not in _NOT_NAMES]
        if words:
            return words[0] if not words[0][0].isdigit() else f"api_{words[0]}"
    return "api"


_NOT_NAMES = frozenset(
    {"the", "api", "apis", "rest", "openapi", "swagger", "spec", "official", "v1", "v2", "v3"}
)


def read_source_spec(
    root: Path, spec: str, file_label: str | None = None
) -> tuple[SpecDocument | None, list[EntryProblem], list[Diagnostic]]:
    """The spec file of an entry, read only when it lies inside the project."""
    try:
        raw = _spec_bytes(root, spec)
    except _Refused as exc:
        return None, [EntryProblem(("spec",), str(exc))], []
    try:
        return read_spec(raw, file_label or spec), [], []
    except SpecUnreadable as exc:
        return None, [], [exc.diagnostic]


class _Refused(Exception):
    """The spec path is not one mcpgen reads; the message says why."""


def _spec_bytes(root: Path, spec: str) -> bytes:
    """The bytes of `root/spec`, refused (never opened) unless the path is a plain relative
    one whose real location, symlinks followed, is inside the project."""
    problem = lexical_problem(spec)
    if problem is not None:
        raise _Refused(f"the spec must be a path inside the project, not {problem}")
    full = root / spec
    real_root = os.path.realpath(root)
    real = os.path.realpath(full)
    if os.path.commonpath([real_root, real]) != real_root:
        raise _Refused(f"'{spec}' leads out of the project through a symlink; copy it in instead")
    if not os.path.isfile(real):
        what = "does not exist" if not os.path.lexists(full) else "is not a regular file"
        raise _Refused(f"'{spec}' {what} (paths are relative to the project folder)")
    try:
        return Path(real).read_bytes()
    except OSError as exc:
        raise _Refused(f"cannot read '{spec}': {exc.strerror or exc}") from None


def tools_from_source(root: Path, entry: JSON, *, spec_label: str | None = None) -> SourceResult:
    """Read, validate and convert the spec of one validated `openapi:` entry; diagnostics
    name the spec file `spec_label` (default: its path in the project)."""
    result = SourceResult(spec=str(entry.get("spec", "")))
    document, problems, diagnostics = read_source_spec(root, result.spec, spec_label)
    result.problems += problems
    result.diagnostics += diagnostics
    if document is None:
        return result
    result.spec_sha256 = document.sha256
    result.document = document
    result.diagnostics += spec_problems(document)
    if has_errors(result.diagnostics):
        return result
    data: JSON = document.data
    info: JSON = data["info"] if isinstance(data.get("info"), dict) else {}
    result.title = str(info.get("title") or "")
    result.key = str(entry.get("name") or api_key(result.title, result.spec))
    result.base_url = _base_url(entry, data, document, result)
    refs = SpecRefs(data, version_of(data) or "3.0")
    operations = list(_operations(refs, data, document, result))
    selected = _selected(operations, entry, result)
    overrides: JSON = entry.get("overrides") or {}
    known = {key for key, *_ in operations}
    for key in overrides:
        if key not in known:
            message = f"no operation '{key}' in {result.spec}{suggest(key, sorted(known))}"
            result.problems.append(EntryProblem(("overrides", key), message, at_key=True))
    named = naming.unique_names(
        [
            (key, naming.base_name(op.get("operationId"), method, path))
            for key, path, method, _, op in selected
        ]
    )
    for key, path, method, path_item, operation in selected:
        try:
            draft = draft_tool(
                refs, path, method, path_item, operation, api=result.key, name=named[key]
            )
        except OperationSkipped as exc:
            where = ("paths", path, method)
            message = f"operation '{key}' is not imported: {exc}"
            result.diagnostics.append(document.diagnostic(where, message, "warning"))
            continue
        except RefError as exc:
            result.diagnostics.append(document.diagnostic(("paths", path, method), str(exc)))
            continue
        except RecursionError:
            message = f"operation '{key}': its schemas are nested too deeply to convert"
            result.diagnostics.append(document.diagnostic(("paths", path, method), message))
            continue
        result.tools.append(_overridden(draft, overrides.get(key) or {}))
    return result


def _base_url(entry: JSON, data: JSON, document: SpecDocument, result: SourceResult) -> str:
    given = entry.get("base_url")
    if isinstance(given, str) and given:
        return given.rstrip("/")
    servers = data.get("servers")
    server: JSON = (
        servers[0] if isinstance(servers, list) and servers and isinstance(servers[0], dict) else {}
    )
    url: str = server["url"] if isinstance(server.get("url"), str) else ""
    for name, variable in (server.get("variables") or {}).items():
        if isinstance(variable, dict) and "default" in variable:
            url = url.replace(f"{{{name}}}", str(variable["default"]))
    if not url.startswith(("http://", "https://")):
        shown = f"'{url}'" if url else "no server URL"
        message = (
            f"the spec gives {shown}, not an absolute http(s) URL; "
            "set `base_url:` on this entry (or pass --base-url)"
        )
        result.problems.append(EntryProblem(("spec",), message))
        return url
    return url.rstrip("/")


def _operations(
    refs: SpecRefs, data: JSON, document: SpecDocument, result: SourceResult
) -> list[tuple[str, str, str, JSON, JSON]]:
    """(key, path, method, path item, operation) for every operation, in document order."""
    found = []
    seen: dict[str, JsonPath] = {}
    paths: JSON = data["paths"] if isinstance(data.get("paths"), dict) else {}
    for path, raw_item in paths.items():
        try:
            item = refs.deref(raw_item)
        except RefError as exc:
            result.diagnostics.append(document.diagnostic(("paths", path), str(exc)))
            continue
        if not isinstance(item, dict):
            continue
        for method, operation in item.items():  # in the order the document writes them
            if method not in METHODS or not isinstance(operation, dict):
                continue
            key = operation_key(operation, method, path)
            if key in seen:
                message = (
                    f"operationId '{key}' is used twice (also at {seen[key][1]} {seen[key][2]})"
                )
                result.diagnostics.append(
                    document.diagnostic(("paths", path, method, "operationId"), message)
                )
                continue
            seen[key] = ("paths", path, method)
            found.append((key, path, method, item, operation))
    return found


def _selected(
    operations: list[tuple[str, str, str, JSON, JSON]], entry: JSON, result: SourceResult
) -> list[tuple[str, str, str, JSON, JSON]]:
    """The operations `include`, `tags` and `exclude` choose (all when neither of the first
    two is given); names in them that match nothing are errors, with a suggestion."""
    keys = [key for key, *_ in operations]
    known_tags = sorted(
        {t for *_, op in operations for t in op.get("tags") or () if isinstance(t, str)}
    )
    include = entry.get("include")
    tags = entry.get("tags")
    exclude = entry.get("exclude") or []
    for list_key, wanted, choices, what in (
        ("include", include or [], keys, "operation"),
        ("exclude", exclude, keys, "operation"),
        ("tags", tags or [], known_tags, "tag"),
    ):
        for index, name in enumerate(wanted):
            if name not in choices:
                message = f"no {what} '{name}' in {result.spec}{suggest(name, choices)}"
                result.problems.append(EntryProblem((list_key, index), message))
    chosen = []
    for operation in operations:
        key, *_, op = operation
        op_tags = set(op.get("tags") or ())
        picked = (include is None and tags is None) or (
            key in (include or []) or bool(op_tags & set(tags or []))
        )
        if picked and key not in exclude:
            chosen.append(operation)
    return chosen


def _overridden(draft: ToolDraft, override: JSON) -> ImportedTool:
    """The draft with the manifest's override for its operation applied."""
    validation = str(override.get("output_validation", "strict"))
    custom = override.get("handler") == "custom"
    binding: JSON | None = None if custom else dict(draft.binding)
    output_schema = draft.output_schema
    if validation != "strict":
        if binding is not None and validation == "warn":
            binding["response_schema"] = output_schema
        output_schema = None
    if binding is not None:
        binding["output_validation"] = validation
    annotations = {**annotations_for(draft.method), **(override.get("annotations") or {})}
    return ImportedTool(
        name=str(override.get("name") or draft.name),
        operation=draft.key,
        title=override.get("title", draft.title),
        description=override.get("description", draft.description),
        input_schema=draft.input_schema,
        output_schema=output_schema,
        annotations=annotations,
        binding=binding,
        output_validation=validation,
        spec_where=draft.where,
        renamed="name" in override,
        python_name=override.get("python_name"),
        timeout=override.get("timeout"),
        api=draft.binding["api"],
    )


def spec_tags(document: SpecDocument) -> list[str]:
    """The tags the spec's operations use, for messages and `--tags` completion."""
    data: Any = document.data
    found: set[str] = set()
    for item in (data.get("paths") or {}).values() if isinstance(data, dict) else ():
        if isinstance(item, dict):
            for method in METHODS:
                op = item.get(method)
                if isinstance(op, dict):
                    found.update(t for t in op.get("tags") or () if isinstance(t, str))
    return sorted(found)
