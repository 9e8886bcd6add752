"""Paths read from files mcpgen does not control are checked before any of them is used.

State, the scaffold record, copier's answers, the journal and the manifest all name files
to write or delete. A cloned repository can hold any of them, so every such path must be
relative, normalised (no `.`/`..`, no empty part, no backslash), and stay inside the project
even when a folder on the way is a symlink. A bad entry is an error that names the file and
the line of the entry, raised before anything is written.
"""

from __future__ import annotations

import json
from pathlib import Path

from mcpgen.core.relpath import lexical_problem, outside_reason
from mcpgen.errors import McpgenError

__all__ = ["check_entry", "check_inside", "lexical_problem", "locate", "outside_reason"]


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


def check_inside(root: Path, path: str, *, where: str) -> None:
    """Lexical and symlink checks together; `where` names the source of the path."""
    problem = lexical_problem(path) or outside_reason(root, path)
    if problem is not None:
        raise McpgenError(
            f"{where}: refusing {path!r}, which is outside the project ({problem}); "
            "nothing was written or deleted"
        )
