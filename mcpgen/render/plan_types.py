"""What a render produces: a list of files with their owners, and nothing written yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# generated: rewritten whole on every run, hash kept in the state file, hand edits refused.
# user: created once if absent, never modified or deleted afterwards (handlers, user tests).
# local: machine-specific generated output (hosts/): rewritten, git-ignored, no hand-edit check.
Owner = Literal["generated", "user", "local"]


@dataclass(frozen=True)
class PlannedFile:
    """One file a render wants on disk; `path` is POSIX and relative to the project root."""

    path: str
    content: str
    owner: Owner
    tool: str | None = None  # the tool a per-tool file belongs to (handler, user test)


@dataclass(frozen=True)
class RenderPlan:
    """Every file a render wants, in a stable order."""

    files: tuple[PlannedFile, ...]

    def by_owner(self, owner: Owner) -> tuple[PlannedFile, ...]:
        return tuple(f for f in self.files if f.owner == owner)

    def get(self, path: str) -> PlannedFile | None:
        return next((f for f in self.files if f.path == path), None)
