"""Whether a path read from a file mcpgen does not control stays inside the project.

Pure checks shared by the writer (state, journal, scaffold record) and the manifest
(resource `file:`s): relative, normalised, and no symlinked folder on the way out.
"""

from __future__ import annotations

import os
from pathlib import Path


def lexical_problem(path: str) -> str | None:
    """Why `path` is not a plain relative POSIX path inside a project, or None."""
    if not isinstance(path, str) or not path:
        return "an empty path"
    if "\\" in path or "\x00" in path:
        return "a path with a backslash or a NUL byte"
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        return "an absolute path"
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "a path with `..`, `.` or an empty part" if ".." in parts else "a non-normal path"
    return None


def outside_reason(root: Path, path: str) -> str | None:
    """Why writing `root/path` would leave the project through a symlink, or None.

    Every folder on the way is resolved (symlinks followed); the file itself is not, since
    mcpgen replaces a link at that name rather than writing through it.
    """
    base = root.resolve()
    parent = (root / path).parent
    resolved = Path(os.path.realpath(parent))
    if resolved != base and base not in resolved.parents:
        return f"a folder on its way is a symlink that leads out of the project ({resolved})"
    return None
