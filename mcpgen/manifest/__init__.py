"""The manifest: find it, load it, validate it, and build the typed `Manifest`.

    manifest = load_manifest(find_manifest(Path(".")))    # raises ManifestInvalid

Loading and validation never raise for a bad manifest; every problem is collected as a
diagnostic, and `load_manifest` raises one `ManifestInvalid` holding all of them.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from mcpgen.errors import Diagnostic, ManifestInvalid, McpgenError, has_errors
from mcpgen.manifest.model import Manifest, build_manifest

# The YAML loader and the validators (ruamel, jsonschema, referencing) are imported where they
# are used: importing `mcpgen.manifest.model` for the `Manifest` type must stay cheap, since
# every command module does it at start-up (`mcpgen --help` included).

__all__ = [
    "MANIFEST_FILENAME",
    "Manifest",
    "check_manifest",
    "check_text",
    "find_manifest",
    "load_manifest",
    "manifest_json_schema",
]

MANIFEST_FILENAME = "mcpgen.yaml"


def find_manifest(dir_or_file: Path) -> Path:
    """`dir_or_file` itself if it is a file, else `dir_or_file/mcpgen.yaml`; it must exist."""
    path = dir_or_file / MANIFEST_FILENAME if dir_or_file.is_dir() else dir_or_file
    if os.path.lexists(path) and not path.is_file():
        raise McpgenError(
            f"{display_name(path)} is a {_kind_of(path)}, not a file; "
            "the manifest must be a regular YAML file"
        )
    if not path.is_file():
        where = "this directory" if str(dir_or_file) in ("", ".") else f"'{dir_or_file}'"
        detail = (
            f"no {MANIFEST_FILENAME} in {where}"
            if dir_or_file.is_dir()
            else (f"'{path}' does not exist")
        )
        raise McpgenError(f"{detail}; create one with `mcpgen new`, or pass its path")
    return path


def _kind_of(path: Path) -> str:
    """What stands at `path` instead of a regular file (it exists, at least as a link)."""
    if not path.is_symlink():
        return _kind_of_mode(path.lstat().st_mode)
    if not path.exists():
        return "dangling symlink"
    return f"symlink to a {_kind_of_mode(path.stat().st_mode)}"


def _kind_of_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "folder"
    return "FIFO" if stat.S_ISFIFO(mode) else "special file"


def display_name(path: Path) -> str:
    """The file name diagnostics show: relative to the working directory when inside it."""
    if path.is_absolute():
        try:
            return str(path.relative_to(Path.cwd()))
        except ValueError:
            return str(path)
    return os.path.normpath(path)


def check_text(
    text: str, file: str, root: Path | None = None
) -> tuple[Manifest | None, list[Diagnostic]]:
    """Load and validate manifest text; the manifest is None when there is any error.
    `root`, the project folder, lets resource `file:`s be checked and read."""
    from mcpgen.manifest.load import load_yaml
    from mcpgen.manifest.validate import validate_manifest, with_tool_names

    try:
        loaded = load_yaml(text, file)
        diagnostics = list(loaded.diagnostics)
        if loaded.data is not None:
            found = validate_manifest(loaded.data, loaded.source_map, file, root)
            diagnostics += _without_consequences(found, loaded.diagnostics)
    except RecursionError:
        return None, [Diagnostic(file, 1, 1, "", "the manifest is nested too deeply to read")]
    diagnostics = sorted(set(with_tool_names(diagnostics, loaded.data)))
    if has_errors(diagnostics) or loaded.data is None:
        return None, diagnostics
    if root is not None and loaded.data.get("openapi"):
        return _with_imported_tools(loaded, file, root, diagnostics)
    return build_manifest(loaded.data, root), diagnostics


def _with_imported_tools(
    loaded: Any, file: str, root: Path, diagnostics: list[Diagnostic]
) -> tuple[Manifest | None, list[Diagnostic]]:
    """The manifest with the tools of its `openapi:` sources, read from the project.

    Without the project folder (a manifest checked on its own) the sources are not read.
    """
    from mcpgen.manifest.openapi_sources import expand_sources

    imported, found = expand_sources(loaded.data, loaded.source_map, file, root)
    diagnostics = sorted({*diagnostics, *found})
    if has_errors(diagnostics):
        return None, diagnostics
    manifest = build_manifest(
        loaded.data,
        root,
        imported_tools=imported.manifest_tools(),
        apis=tuple(imported.apis),
        imported_env=imported.unique_env(),
    )
    return manifest, diagnostics


def _without_consequences(
    found: list[Diagnostic], yaml_problems: list[Diagnostic]
) -> list[Diagnostic]:
    """Drop what follows from a YAML problem already reported at the same place.

    A `.inf` or a recursive alias is kept as text or null so validation can go on; the
    schema then complains about that stand-in, which would only repeat the first message.
    """
    causes = {(d.line, d.col, d.path) for d in yaml_problems if d.level == "error"}
    return [d for d in found if (d.line, d.col, d.path) not in causes]


def check_manifest(path: Path) -> tuple[Manifest | None, list[Diagnostic]]:
    """Load and validate the manifest at `path`; McpgenError only if it cannot be read at all."""
    file = display_name(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise McpgenError(f"cannot read {file}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")  # tolerate the BOM some Windows editors write
    except UnicodeDecodeError as exc:
        message = f"the manifest is not UTF-8 text (byte {exc.start} cannot be decoded)"
        return None, [Diagnostic(file, *_line_col(raw, exc.start), "", message)]
    return check_text(text, file, path.parent)


def _line_col(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    return before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1


def load_manifest(path: Path) -> Manifest:
    """The typed manifest at `path`, or ManifestInvalid with every diagnostic (warnings too)."""
    manifest, diagnostics = check_manifest(path)
    if manifest is None:
        raise ManifestInvalid(diagnostics)
    return manifest


def manifest_json_schema() -> dict[str, Any]:
    """The manifest's own JSON Schema (2020-12), as `mcpgen schema` prints it."""
    from mcpgen.manifest.validate import manifest_json_schema_text

    schema: dict[str, Any] = json.loads(manifest_json_schema_text())
    return schema
