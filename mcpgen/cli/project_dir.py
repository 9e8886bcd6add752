"""Which project a command works on, found the way git finds its repository.

A command given a folder without `mcpgen.yaml` (by default the working directory, e.g.
`src/pkg/handlers` of a project) uses the nearest folder above it that has one. The walk
stays on the file system it started on and ends at its root, and a manifest another user
owns is refused rather than used: a shared parent folder (`/tmp`, a mount point) must not
turn a command into one run on a stranger's project.
"""

from __future__ import annotations

import os
from pathlib import Path

from mcpgen.errors import McpgenError
from mcpgen.manifest import MANIFEST_FILENAME, find_manifest


def find_project_manifest(dir_or_file: Path) -> Path:
    """The manifest a command given `dir_or_file` works on: the file itself, the folder's
    own `mcpgen.yaml`, or the nearest one above the folder (announced in one line)."""
    if not dir_or_file.is_dir() or os.path.lexists(dir_or_file / MANIFEST_FILENAME):
        # The usual case, paths and messages unchanged; a manifest here that cannot be read
        # (a dangling symlink) is this folder's error, never a reason to use a parent's.
        return find_manifest(dir_or_file)
    where = "this directory" if str(dir_or_file) in ("", ".") else f"'{dir_or_file}'"
    try:
        start = dir_or_file.resolve()
    except OSError:  # the working folder was deleted while a shell still stood in it
        raise McpgenError(
            f"{where} no longer exists (deleted while you were in it); cd into the project again"
        ) from None
    found = _nearest_manifest_above(start)
    if found is None:
        raise McpgenError(
            f"no {MANIFEST_FILENAME} in {where} or any directory above it; "
            "create one with `mcpgen new`, or pass its path"
        )
    _refuse_if_foreign(found)
    _announce(found.parent, start)
    return find_manifest(found)


def _nearest_manifest_above(start: Path) -> Path | None:
    """The first `mcpgen.yaml` in a parent of `start`, on `start`'s file system."""
    try:
        device = start.stat().st_dev
    except OSError:
        return None
    for folder in start.parents:
        try:
            if folder.stat().st_dev != device:  # a mount boundary: another file system
                return None
        except OSError:  # an unreadable parent: as far as the walk may go
            return None
        candidate = folder / MANIFEST_FILENAME
        if os.path.lexists(candidate):  # the nearest one decides, readable or not
            return candidate
    return None


def _refuse_if_foreign(manifest: Path) -> None:
    """A manifest found by walking up must belong to whoever runs mcpgen (as git's
    `safe.directory`): anyone may create `/tmp/mcpgen.yaml`."""
    try:  # the file, and a symlink to it: either could be a stranger's
        owners = {manifest.lstat().st_uid, manifest.stat().st_uid}
    except OSError as exc:
        raise McpgenError(f"cannot read '{manifest}': {exc.strerror or exc}") from None
    if owners != {os.geteuid()}:
        raise McpgenError(
            f"the nearest {MANIFEST_FILENAME} above this directory, '{manifest}', belongs to "
            "another user; pass its folder explicitly if you mean to work on it"
        )


def _announce(root: Path, start: Path) -> None:
    from mcpgen.cli import plain_line

    levels = len(start.relative_to(root).parts)
    noun = "folder" if levels == 1 else "folders"
    plain_line(f"Using the project in {root} ({levels} {noun} up)")
