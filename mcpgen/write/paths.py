"""Paths read from files mcpgen does not control are checked before any of them is used.

State, the scaffold record, copier's answers, the journal and the manifest all name files
to write or delete. A cloned repository can hold any of them, so every such path must be
relative, normalised (no `.`/`..`, no empty part, no backslash), and stay inside the project
even when a folder on the way is a symlink. A bad entry is an error that names the file and
the line of the entry, raised before anything is written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from mcpgen.errors import McpgenError


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


def locate(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the JSON string `needle` in `text` (1:1 if absent)."""
    for candidate in (json.dumps(needle, ensure_ascii=False), json.dumps(needle)):
        index = text.find(candidate)
        if index >= 0:
            line = text.count("\n", 0, index) + 1
            col = index - (text.rfind("\n", 0, index) + 1) + 1
            return line, col
    return 1, 1


def check_entry(path: object, *, where: str, text: str | None = None) -> str:
    """`path` from the file `where` (whose `text` locates the entry), or a located McpgenError."""
    problem = lexical_problem(path) if isinstance(path, str) else "not a string"
    if problem is None:
        assert isinstance(path, str)
        return path
    line, col = locate(text, str(path)) if text is not None else (1, 1)
    raise McpgenError(
        f"{where}:{line}:{col}: refusing {str(path)!r}, which is outside the project "
        f"({problem}); nothing was written or deleted (restore {where} from a trusted copy)"
    )


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


def check_inside(root: Path, path: str, *, where: str) -> None:
    """Lexical and symlink checks together; `where` names the source of the path."""
    problem = lexical_problem(path) or outside_reason(root, path)
    if problem is not None:
        raise McpgenError(
            f"{where}: refusing {path!r}, which is outside the project ({problem}); "
            "nothing was written or deleted"
        )
