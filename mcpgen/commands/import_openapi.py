"""`mcpgen import openapi SPEC`: an OpenAPI document's operations become a server's tools.

Outside a project, a new project is made as `mcpgen new` makes one, with the spec copied to
`openapi/<file>` and an `openapi:` source in its manifest. Inside a project, the spec is
copied the same way and the source appended to the manifest as text (comments and layout
kept); the caller then generates. Nothing is changed when the spec or the result is invalid.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpgen.errors import ManifestInvalid, McpgenError, has_errors
from mcpgen.manifest import MANIFEST_FILENAME, display_name

SPEC_FOLDER = "openapi"


@dataclass(frozen=True)
class ImportOptions:
    """What the command line chose; None and empty mean "as the spec says" and "all"."""

    name: str | None = None
    include: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    base_url: str | None = None


@dataclass(frozen=True)
class ReadSpec:
    """The user's spec file, read and found valid."""

    path: Path
    raw: bytes
    data: dict[str, Any]
    key: str  # the API's name: --name, else from the spec's title


@dataclass(frozen=True)
class ImportedSource:
    """What an import into an existing project wrote."""

    manifest_path: Path
    spec: str  # the spec's path in the project
    key: str
    copied: bool  # the spec was copied into the project (False: it was there already)


def read_user_spec(path: Path, options: ImportOptions) -> ReadSpec:
    """The spec at `path` (anywhere: the user named it), refused with located diagnostics
    when it is not a valid OpenAPI 3.0/3.1 document."""
    from mcpgen.openapi.source import api_key
    from mcpgen.openapi.spec_file import SpecUnreadable, read_spec
    from mcpgen.openapi.validate import spec_problems

    if not path.is_file():
        raise McpgenError(f"'{path}' is not a file; give the path of an OpenAPI JSON or YAML file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise McpgenError(f"cannot read '{path}': {exc.strerror or exc}") from None
    label = display_name(path)
    try:
        document = read_spec(raw, label)
    except SpecUnreadable as exc:
        raise ManifestInvalid([exc.diagnostic]) from None
    problems = spec_problems(document)
    if has_errors(problems):
        raise ManifestInvalid(problems)
    info = document.data.get("info") or {}
    title = info.get("title") if isinstance(info, dict) else None
    key = options.name or api_key(title if isinstance(title, str) else None, path.name)
    if not re.fullmatch(r"[a-z][a-z0-9_]*", key):
        raise McpgenError(
            f"--name {key!r}: an API name is lower-case letters, digits and underscores, "
            "starting with a letter"
        )
    return ReadSpec(path, raw, document.data, key)


def source_entry(spec: ReadSpec, project_path: str, options: ImportOptions) -> dict[str, Any]:
    """The manifest's `openapi:` entry for this import."""
    entry: dict[str, Any] = {"spec": project_path, "name": spec.key}
    if options.base_url:
        entry["base_url"] = options.base_url
    if options.include:
        entry["include"] = list(options.include)
    if options.tags:
        entry["tags"] = list(options.tags)
    auth = guess_auth(spec.data, spec.key)
    if auth is not None:
        entry["auth"] = auth
    return entry


def guess_auth(data: dict[str, Any], key: str) -> Any:
    """The `auth:` form the spec's first security scheme asks for, read from environment
    variables named after the API (`GITHUB_TOKEN`); None when it declares none."""
    components = data.get("components")
    schemes = components.get("securitySchemes") if isinstance(components, dict) else None
    scheme = next(iter(schemes.values()), None) if isinstance(schemes, dict) else None
    if not isinstance(scheme, dict):
        return None
    prefix = key.upper()
    kind = scheme.get("type")
    where = scheme.get("in")
    if kind == "apiKey" and isinstance(scheme.get("name"), str) and where in ("header", "query"):
        return {str(where): scheme["name"], "env": f"{prefix}_API_KEY"}
    if kind == "http" and str(scheme.get("scheme", "")).lower() == "basic":
        return {"basic_env": [f"{prefix}_USERNAME", f"{prefix}_PASSWORD"]}
    if kind in ("http", "oauth2", "openIdConnect"):
        return {"bearer_env": f"{prefix}_TOKEN"}
    return None


def project_spec_path(spec: ReadSpec) -> str:
    """Where the spec is copied in a project: `openapi/<its file name>`."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", spec.path.name).strip(".-") or "spec.json"
    return f"{SPEC_FOLDER}/{name}"


def manifest_text(spec: ReadSpec, entry: dict[str, Any]) -> str:
    """The manifest of a project made from a spec: the server, no written tools, one source."""
    from mcpgen.manifest.append import append_entry

    info = spec.data.get("info") or {}
    title = info.get("title") if isinstance(info, dict) else None
    description = f"MCP server for {title}" if isinstance(title, str) and title else ""
    head = [
        f"# Tools imported from {entry['spec']}: every `mcpgen generate` re-reads it.",
        "# Choose operations with include: / tags: / exclude:, rename or adjust a tool under",
        "# overrides: (by operationId), and give calls credentials with auth:.",
        f"name: {spec.key}",
        'version: "0.1.0"',
    ]
    if description:
        head.append(f"description: {_yaml_string(description)}")
    head.append("tools: []")
    return append_entry("\n".join(head) + "\n", "openapi", entry, "OpenAPI source")


def _yaml_string(text: str) -> str:
    return json.dumps(" ".join(text.split()), ensure_ascii=False)


def new_project_start(spec: ReadSpec, options: ImportOptions) -> Any:
    """The `StartingManifest` of a new project made from `spec`; ManifestInvalid when the
    import finds problems (an unknown operationId in --include, say)."""
    from mcpgen.commands.new import StartingManifest
    from mcpgen.manifest import check_text

    path = project_spec_path(spec)
    entry = source_entry(spec, path, options)
    text = manifest_text(spec, entry)
    with tempfile.TemporaryDirectory(prefix="mcpgen-import-") as staging:
        root = Path(staging)
        (root / SPEC_FOLDER).mkdir()
        (root / path).write_bytes(spec.raw)
        manifest, diagnostics = check_text(text, MANIFEST_FILENAME, root)
    if manifest is None:
        raise _as_option_problems(diagnostics, path, spec.path)
    files = ((path, spec.raw),)
    return StartingManifest(manifest, text.encode("utf-8"), example=False, files=files)


# Where the import's own entry is in a manifest it checks, and the option that wrote each key.
_ENTRY_PATH = re.compile(r"openapi\[\d+\]\.(?P<key>include|tags|exclude|base_url|spec|name)\b")
_OPTION = {"include": "--include", "tags": "--tags", "base_url": "--base-url", "name": "--name"}


def _as_option_problems(diagnostics: list[Any], project_spec: str, user_spec: Path) -> McpgenError:
    """Problems of a manifest the user has not seen yet, told as they can act on them: when
    only the import's own entry is wrong, by the option that wrote it; a spec's problem at
    the file the user named."""
    import dataclasses

    by_option: list[str] = []
    rest: list[Any] = []
    for diagnostic in diagnostics:
        in_manifest = diagnostic.file.endswith(MANIFEST_FILENAME)
        found = _ENTRY_PATH.match(diagnostic.path) if in_manifest else None
        if found and diagnostic.level == "error":
            by_option.append(f"{_OPTION.get(found['key'], 'the spec')}: {diagnostic.message}")
            rest.append(diagnostic)
        elif diagnostic.file.endswith(project_spec):
            rest.append(dataclasses.replace(diagnostic, file=display_name(user_spec)))
        else:
            rest.append(diagnostic)
    errors = [d for d in rest if d.level == "error"]
    if by_option and len(by_option) == len(errors):
        return McpgenError("; ".join(by_option) + "; nothing was created or changed")
    return ManifestInvalid(rest)


def add_to_project(manifest_path: Path, spec: ReadSpec, options: ImportOptions) -> ImportedSource:
    """Copy the spec into the project and append its source to the manifest; on any problem
    the project is left as it was."""
    from mcpgen.commands.add import append_to_manifest
    from mcpgen.write import transaction

    root = manifest_path.parent
    inside = _inside(root, spec.path)
    path = inside or project_spec_path(spec)
    _refuse_a_second_import(manifest_path, spec.key, path)
    target = root / path
    copied = False
    if inside is None:
        if target.exists() or target.is_symlink():
            if not target.is_file() or target.read_bytes() != spec.raw:
                raise McpgenError(
                    f"{display_name(target)} exists and holds another document; rename the "
                    "spec file you import, or remove that one"
                )
        else:
            transaction.commit(root, [transaction.Step("write", path, spec.raw)])
            copied = True
    entry = source_entry(spec, path, options)
    try:
        try:
            append_to_manifest(manifest_path, "openapi", entry, "OpenAPI source")
        except ManifestInvalid as exc:
            raise _as_option_problems(exc.diagnostics, path, spec.path) from None
    except BaseException:
        if copied:
            target.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                target.parent.rmdir()  # only when the import made it and it is empty
        raise
    return ImportedSource(manifest_path, path, spec.key, copied)


def _refuse_a_second_import(manifest_path: Path, key: str, path: str) -> None:
    """An API already imported is edited in the manifest, not imported again."""
    from mcpgen.manifest.load import load_yaml

    try:
        text = manifest_path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return  # the edit reports it
    data = load_yaml(text, display_name(manifest_path)).data
    sources = data.get("openapi") if isinstance(data, dict) else None
    for index, entry in enumerate(sources if isinstance(sources, list) else []):
        if not isinstance(entry, dict):
            continue
        if entry.get("spec") == path or entry.get("name") == key:
            raise McpgenError(
                f"{display_name(manifest_path)} already imports {entry.get('spec')} as "
                f"openapi[{index}]; change what it imports there (include:, tags:, exclude:), "
                "or pass --name to import another copy under another name"
            )


def _inside(root: Path, spec: Path) -> str | None:
    """The spec's path in the project when it already lies inside it (no symlink out)."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(spec)
    if os.path.commonpath([real_root, real]) != real_root or real == real_root:
        return None
    return Path(os.path.relpath(real, real_root)).as_posix()
