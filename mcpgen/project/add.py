"""`mcpgen add tool`: append a tool skeleton to the manifest, keeping its comments and layout."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

from mcpgen.errors import ManifestInvalid, McpgenError
from mcpgen.write.atomic import write_atomic


def append_tool_to_manifest(manifest_path: Path, name: str, description: str | None = None) -> None:
    """Append tool `name` to the manifest; the file is left unchanged when the result would
    be invalid (ManifestInvalid, e.g. a bad tool name) or the tool exists (McpgenError)."""
    from mcpgen.manifest import check_text, display_name
    from mcpgen.sync.add_tool import append_tool

    bom, original = _read_text(manifest_path)
    text = append_tool(original, name, description)  # keeps the file's line endings
    manifest, diagnostics = check_text(text, display_name(manifest_path))
    if manifest is None:
        raise ManifestInvalid(diagnostics)
    # A symlinked manifest: edit the file it points to, keep the link.
    write_atomic(manifest_path.resolve(), bom + text.encode("utf-8"))


def append_to_manifest(manifest_path: Path, key: str, entry: dict[str, Any], what: str) -> None:
    """Append a resource or prompt `entry` to the manifest's `key` list; unchanged when the
    result would be invalid (ManifestInvalid) or the name is taken (McpgenError)."""
    from mcpgen.manifest import check_text, display_name
    from mcpgen.sync.add_tool import append_entry

    bom, original = _read_text(manifest_path)
    text = append_entry(original, key, entry, what)
    manifest, diagnostics = check_text(text, display_name(manifest_path), manifest_path.parent)
    if manifest is None:
        raise ManifestInvalid(diagnostics)
    write_atomic(manifest_path.resolve(), bom + text.encode("utf-8"))


def resource_entry(
    name: str, uri: str, description: str | None, text: str | None
) -> dict[str, Any]:
    """A resource skeleton: static `text` when given, else a handler reads it."""
    entry: dict[str, Any] = {"uri": uri, "name": name}
    if description:
        entry["description"] = description
    if text is not None:
        entry["text"] = text
    return entry


def prompt_entry(name: str, description: str | None, template: str | None) -> dict[str, Any]:
    """A prompt skeleton: a static `template` when given, else a handler writes it."""
    entry: dict[str, Any] = {"name": name}
    if description:
        entry["description"] = description
    if template is not None:
        entry["template"] = template
    return entry


def _read_text(path: Path) -> tuple[bytes, str]:
    """The manifest's UTF-8 byte-order mark (kept on write, b"" if none) and its text."""
    try:
        raw = path.read_bytes()
        bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
        return bom, raw[len(bom) :].decode("utf-8")
    except OSError as exc:
        raise McpgenError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise McpgenError(f"cannot edit {path}: it is not UTF-8 text") from None
