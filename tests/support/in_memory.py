"""Helpers for the sync tests: tiny trees, plans and manifests built in memory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcpgen.manifest.model import Manifest, build_manifest
from mcpgen.render.plan import Owner, PlannedFile, RenderPlan

Tree = dict[str, bytes]


def snapshot_tree(root: Path) -> Tree:
    """Every file under `root` (hidden ones too) → its bytes; directories as `dir/` → b""."""
    tree: Tree = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        tree[relative + "/" if path.is_dir() else relative] = (
            b"" if path.is_dir() else path.read_bytes()
        )
    return tree


def write_tree(root: Path, files: dict[str, str]) -> None:
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def plan_of(*files: tuple[str, str, Owner] | tuple[str, str, Owner, str]) -> RenderPlan:
    return RenderPlan(
        tuple(PlannedFile(f[0], f[1], f[2], f[3] if len(f) > 3 else None) for f in files)
    )


def tool(name: str, properties: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if "required" in extra:
        schema["required"] = extra.pop("required")
    return {"name": name, "input_schema": schema, **extra}


def manifest_of(*tools: dict[str, Any], name: str = "demo") -> Manifest:
    return build_manifest({"name": name, "version": "0.1.0", "tools": list(tools)})
