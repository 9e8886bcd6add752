"""`mcpgen add tool`: append a tool skeleton to the manifest, keeping its comments and layout.

The manifest is the user's file, and an editor may save it while `add` runs. The edit is
written only over the exact bytes it was computed from (a transaction step that expects their
hash, so an in-place save at any moment is caught and undone); when the file changed
meanwhile, the entry is appended again to what the user saved. A read-only manifest means
"do not modify": it is refused, never made writable.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcpgen.errors import ManifestInvalid, McpgenError
from mcpgen.write import transaction
from mcpgen.write.state import sha256_hex

# Saves by another program between the read and the write that `add` follows before it gives up.
ATTEMPTS = 3


def append_tool_to_manifest(manifest_path: Path, name: str, description: str | None = None) -> None:
    """Append tool `name` to the manifest; the file is left unchanged when the result would
    be invalid (ManifestInvalid, e.g. a bad tool name) or the tool exists (McpgenError)."""
    from mcpgen.manifest import check_text, display_name
    from mcpgen.manifest.append import append_tool

    def edit(original: str) -> str:
        text = append_tool(original, name, description)  # keeps the file's line endings
        manifest, diagnostics = check_text(text, display_name(manifest_path))
        if manifest is None:
            raise ManifestInvalid(diagnostics)
        return text

    _edit_manifest(manifest_path, edit)


def append_to_manifest(manifest_path: Path, key: str, entry: dict[str, Any], what: str) -> None:
    """Append a resource or prompt `entry` to the manifest's `key` list; unchanged when the
    result would be invalid (ManifestInvalid) or the name is taken (McpgenError)."""
    from mcpgen.manifest import check_text, display_name
    from mcpgen.manifest.append import append_entry

    def edit(original: str) -> str:
        text = append_entry(original, key, entry, what)
        manifest, diagnostics = check_text(text, display_name(manifest_path), manifest_path.parent)
        if manifest is None:
            raise ManifestInvalid(diagnostics)
        return text

    _edit_manifest(manifest_path, edit)


def _edit_manifest(manifest_path: Path, edit: Callable[[str], str]) -> None:
    """Replace the manifest's text with `edit(text)`, never over bytes `edit` did not see."""
    # A symlinked manifest: edit the file it points to, keep the link.
    real = manifest_path.resolve()
    for _ in range(ATTEMPTS):
        raw = _read_bytes(manifest_path, real)
        bom, original = _decode(manifest_path, raw)
        new = bom + edit(original).encode("utf-8")
        step = transaction.Step("write", real.name, content=new, expect=sha256_hex(raw))
        try:
            _commit(real.parent, step)
            return
        except transaction.ChangedMeanwhile:
            continue  # saved by the user meanwhile (and put back): append to what they saved
    raise McpgenError(
        f"{manifest_path.name} kept changing while mcpgen was adding to it; nothing was "
        "added. Run the command again once it is saved."
    )


def _commit(folder: Path, step: transaction.Step) -> None:
    """One journaled write; the journal's folder goes again if the write made it."""
    journal_folder = folder / ".mcpgen"
    made = not journal_folder.exists()
    try:
        transaction.commit(folder, [step])
    finally:
        if made:
            with contextlib.suppress(OSError):
                journal_folder.rmdir()  # only if empty: a journal left by a crash stays


def _read_bytes(manifest_path: Path, real: Path) -> bytes:
    try:
        mode = real.stat().st_mode
        raw = real.read_bytes()
    except OSError as exc:
        raise McpgenError(f"cannot read {manifest_path}: {exc.strerror or exc}") from None
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(real, os.W_OK):
        raise McpgenError(
            f"{manifest_path} is read-only, so mcpgen leaves it as it is; nothing was added "
            f"(make it writable, e.g. `chmod u+w {manifest_path.name}`, then run the command again)"
        )
    return raw


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


def _decode(path: Path, raw: bytes) -> tuple[bytes, str]:
    """The manifest's UTF-8 byte-order mark (kept on write, b"" if none) and its text."""
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    body = raw[len(bom) :]
    try:
        return bom, body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = body.count(b"\n", 0, exc.start) + 1
        col = exc.start - (body.rfind(b"\n", 0, exc.start) + 1) + 1
        raise McpgenError(
            f"{path}:{line}:{col}: cannot edit the manifest: it is not UTF-8 text "
            f"(byte {exc.start + len(bom)} cannot be decoded); nothing was added"
        ) from None
