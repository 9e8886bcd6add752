"""`mcpgen add tool`: append a tool skeleton to the manifest, keeping its comments and layout."""

from __future__ import annotations

import codecs
from pathlib import Path

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
