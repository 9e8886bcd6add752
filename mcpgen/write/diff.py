"""The unified diff a run would write (`mcpgen generate --diff`)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from mcpgen.write.apply import Action


def _lines(data: bytes | None) -> list[str]:
    if data is None:
        return []
    return data.decode("utf-8", errors="replace").splitlines(keepends=True)


def _file_diff(action: Action) -> str:
    if action.kind == "move":
        return f"rename from {action.source}\nrename to {action.path}\n"
    old_name = "/dev/null" if action.kind == "create" else f"a/{action.path}"
    new_name = "/dev/null" if action.kind == "delete" else f"b/{action.path}"
    new = None if action.kind == "delete" else action.content
    hunks = difflib.unified_diff(_lines(action.before), _lines(new), old_name, new_name)
    # A last line without a newline would glue itself to the next header.
    return "".join(line if line.endswith("\n") else line + "\n" for line in hunks)


def unified_diff(actions: Iterable[Action]) -> str:
    """Diff text of every change except the state file, in path order."""
    changes = sorted((a for a in actions if a.writes and a.owner != "state"), key=lambda a: a.path)
    return "".join(_file_diff(a) for a in changes)
