"""`mcpgen bundle`: pack a project into an MCP Bundle (`.mcpb`, a zip with `manifest.json`)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

from mcpgen.errors import McpgenError
from mcpgen.manifest import load_manifest
from mcpgen.ship.bundle import bundle_manifest_text
from mcpgen.write.atomic import write_atomic

# What a `uv` bundle needs: the host runs `uv run` in the unpacked folder, which builds the
# project from pyproject.toml (README.md is its readme) and src/.
ROOT_FILES = ("manifest.json", "pyproject.toml", "README.md")
SOURCE_FOLDER = "src"
_SKIPPED_PARTS = {"__pycache__"}
_SKIPPED_SUFFIXES = {".pyc", ".pyo"}
# Fixed member timestamps: the same project gives the same bytes, whenever it is packed.
_EPOCH = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Bundle:
    path: Path
    members: tuple[str, ...]
    size: int


def bundle_members(root: Path) -> list[str]:
    """The project's files that go into the bundle, as POSIX paths, sorted."""
    members = [name for name in ROOT_FILES if (root / name).is_file()]
    for path in sorted((root / SOURCE_FOLDER).rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and not _SKIPPED_PARTS & set(relative.parts):
            if path.suffix not in _SKIPPED_SUFFIXES:
                members.append(relative.as_posix())
    return members


def default_output(root: Path, distribution: str, version: str) -> Path:
    return root / "dist" / f"{distribution}-{version}.mcpb"


def build_bundle(manifest_path: Path, output: Path | None = None) -> Bundle:
    """Pack the project holding `manifest_path`; its generated files must be current."""
    manifest = load_manifest(manifest_path)
    root = manifest_path.parent
    on_disk = root / "manifest.json"
    wanted = bundle_manifest_text(manifest)
    if not on_disk.is_file() or on_disk.read_text(encoding="utf-8") != wanted:
        raise McpgenError(
            f"{on_disk}: the bundle manifest is missing or stale; run `mcpgen generate` first"
        )
    members = bundle_members(root)
    target = output or default_output(root, manifest.distribution, manifest.version)
    data = _zip(root, members)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, data)
    return Bundle(path=target, members=tuple(members), size=len(data))


def _zip(root: Path, members: list[str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in members:
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, (root / name).read_bytes())
    return buffer.getvalue()
