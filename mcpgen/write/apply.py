"""Compare the render plan with the disk and the state file, then write all of it or nothing.

Decisions per file, made before anything is written:

- generated: absent → create; identical → keep; on disk as mcpgen last wrote it (hash in the
  state file) → update; anything else is a conflict (edited by hand, or never written by
  mcpgen). `--force` turns a conflict into an update that keeps the old bytes as `<file>.orig`.
- user: created when absent, never modified; a renamed tool's files are moved; a removed
  tool's stubs that still hold exactly the bytes mcpgen created (`retired_stubs`) are deleted.
- local (`hosts/`): machine-specific, rewritten when different, never a conflict.
- generated files mcpgen wrote before but no longer plans: deleted when untouched, otherwise a
  conflict (with `--force`: kept as `.orig`); except those the caller keeps (`keep_retired`:
  an old package's files, which the scaffold's pyproject.toml may still point at).
- no state file at all (deleted by the user): a generated file equal to the render is kept,
  any other is a conflict, since nothing tells a stale file from a hand edit.

Every conflict is collected before the first write; one conflict means nothing is written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mcpgen.core.header import GENERATED_HEADER, RUNTIME_HEADER
from mcpgen.errors import ExitCode, McpgenError
from mcpgen.write import paths, transaction
from mcpgen.write.state import STATE_PATH, sha256_hex

if TYPE_CHECKING:  # the plan's types only: a run the run cache answers renders nothing
    from mcpgen.render.plan import RenderPlan

ActionKind = Literal["create", "update", "delete", "move", "keep"]
ActionOwner = Literal["generated", "user", "local", "state", "backup"]  # Owner, state, backup


@dataclass(frozen=True)
class Move:
    """A user file that follows its renamed tool: `source` → `target`, bytes untouched."""

    source: str
    target: str


@dataclass(frozen=True)
class Action:
    """What happens to one path."""

    kind: ActionKind
    path: str
    owner: ActionOwner
    content: bytes | None = None  # the new bytes (create, update)
    before: bytes | None = None  # the bytes on disk now (update, delete), for diffs
    source: str | None = None  # move: where the file is now

    @property
    def writes(self) -> bool:
        """Whether the action touches the disk (anything but `keep`)."""
        return self.kind != "keep"


@dataclass(frozen=True)
class Conflict:
    """A file mcpgen must not write without `--force`."""

    path: str
    reason: str


@dataclass(frozen=True)
class ApplyPlan:
    """Every decision for one run; `conflicts` empty means it can be committed."""

    actions: tuple[Action, ...]
    conflicts: tuple[Conflict, ...] = ()
    forced: tuple[str, ...] = ()  # hand-edited generated files overwritten under --force
    skipped_moves: tuple[Move, ...] = ()  # renamed tools' files left where they are: target taken
    dangling: tuple[str, ...] = ()  # user files that are symlinks to nothing: kept, not replaced

    @property
    def changes(self) -> tuple[Action, ...]:
        """The actions that touch the disk, in plan order."""
        return tuple(a for a in self.actions if a.writes)

    def stale(self) -> list[str]:
        """Project files a run would change, for `--check`: neither `hosts/` nor the state file."""
        paths = {a.path for a in self.changes if a.owner not in ("local", "state", "backup")}
        paths |= {a.source for a in self.changes if a.source is not None}
        paths |= {c.path for c in self.conflicts}
        return sorted(paths)


@dataclass
class _Disk:
    """Reads each path at most once, relative to the project root."""

    root: Path
    cache: dict[str, bytes | None] = field(default_factory=dict)

    def read(self, path: str) -> bytes | None:
        if path not in self.cache:
            target = self.root / path
            try:
                self.cache[path] = target.read_bytes()
            except FileNotFoundError:
                self.cache[path] = None
            except IsADirectoryError:
                raise McpgenError(
                    f"{path} is a directory; mcpgen needs to write a file there"
                ) from None
            except NotADirectoryError:
                raise McpgenError(
                    f"cannot write {path}: a folder on its path is a file; move that file away"
                ) from None
            except OSError as exc:
                raise McpgenError(f"cannot read {path}: {exc.strerror or exc}") from None
        return self.cache[path]


def _python_not_ours(path: str, data: bytes) -> bool:
    """Every Python file mcpgen generates starts with its header (the vendored runtime's with
    its own); one without either is not mcpgen's whatever a (possibly hostile) state file
    records."""
    headers = (GENERATED_HEADER.encode(), RUNTIME_HEADER.encode())
    return path.endswith(".py") and not data.startswith(headers)


def _check_inside(root: Path, path: str, where: str) -> None:
    paths.check_inside(root, path, where=where)


_MERGE_MARKER = re.compile(rb"^(<<<<<<<|>>>>>>>) ", re.MULTILINE)
_MERGE_ADVICE = (
    "has merge-conflict markers (<<<<<<< / >>>>>>>); a generated file is not merged by "
    "hand: take either side (`git checkout --ours -- <file>`) or delete it, then run "
    "`mcpgen generate`, which renders it again from the merged mcpgen.yaml"
)


def _orig_path(path: str, disk: _Disk, taken: set[str]) -> str:
    # Never overwrite an earlier .orig: it may hold an earlier hand edit.
    candidate, number = f"{path}.orig", 1
    while disk.read(candidate) is not None or candidate in taken:
        number += 1
        candidate = f"{path}.orig.{number}"
    taken.add(candidate)
    return candidate


class _Planner:
    """Builds the actions of one run; see the module docstring for the rules."""

    def __init__(self, disk: _Disk, recorded: Mapping[str, str] | None, force: bool) -> None:
        self.disk = disk
        self.recorded: Mapping[str, str] = recorded or {}
        self.state_missing = recorded is None
        self.force = force
        self.actions: list[Action] = []
        self.conflicts: list[Conflict] = []
        self.forced: list[str] = []
        self.origs: set[str] = set()
        self.skipped_moves: list[Move] = []

    def _hand_edit(self, path: str, current: bytes, reason: str) -> bool:
        """Record a conflict, or with --force keep the current bytes as .orig; True if forced."""
        if not self.force:
            self.conflicts.append(Conflict(path, reason))
            return False
        orig = _orig_path(path, self.disk, self.origs)
        self.actions.append(Action("create", orig, "backup", content=current))
        self.forced.append(path)
        return True

    def generated(self, path: str, new: bytes) -> None:
        current = self.disk.read(path)
        if current is None:
            self.actions.append(Action("create", path, "generated", content=new))
            return
        if current == new:
            self.actions.append(Action("keep", path, "generated"))
            return
        recorded = self.recorded.get(path)
        if recorded != sha256_hex(current):
            reason = self._unknown_change(recorded)
            if _MERGE_MARKER.search(current):
                reason = _MERGE_ADVICE
            if not self._hand_edit(path, current, reason):
                return
        self.actions.append(Action("update", path, "generated", content=new, before=current))

    def _unknown_change(self, recorded: str | None) -> str:
        """Why a generated file that differs from the render cannot just be rewritten."""
        if recorded:
            return "edited by hand since mcpgen wrote it"
        if self.state_missing:
            return (
                f"differs from what mcpgen generates, and {STATE_PATH} is missing, "
                "so a hand edit cannot be ruled out"
            )
        return "exists but was not written by mcpgen"

    def local(self, path: str, new: bytes) -> None:
        current = self.disk.read(path)
        kind: ActionKind = "create" if current is None else "keep" if current == new else "update"
        content = None if kind == "keep" else new
        self.actions.append(Action(kind, path, "local", content=content, before=current))

    def user(self, path: str, new: bytes, present: bool) -> None:
        if present:
            self.actions.append(Action("keep", path, "user"))
        else:
            self.actions.append(Action("create", path, "user", content=new))

    def move(self, move: Move, leaving: Collection[str]) -> bool:
        """Plan a move; False when the source is gone or the target is taken (and stays)."""
        if not os.path.lexists(self.disk.root / move.source):
            return False  # the user already deleted it: the new tool just gets a stub
        if os.path.lexists(self.disk.root / move.target) and move.target not in leaving:
            self.skipped_moves.append(move)  # both exist: keep both, and say so
            return False
        self.actions.append(Action("move", move.target, "user", source=move.source))
        return True

    def retired(self, path: str) -> None:
        """A generated file from an earlier run that the plan no longer contains."""
        current = self.disk.read(path)
        if current is None or _python_not_ours(path, current):
            return  # kept: a state file alone never makes mcpgen delete a user's module
        if sha256_hex(current) != self.recorded[path] and not self._hand_edit(
            path, current, "is no longer generated but was edited by hand, so it was not deleted"
        ):
            return
        self.actions.append(Action("delete", path, "generated", before=current))

    def retired_stubs(self, stubs: Mapping[str, str], skip: Collection[str]) -> None:
        """Removed tools' stubs: each deleted only while it holds exactly the bytes mcpgen
        created there, so no byte of the user's goes (the commit checks them again)."""
        for path, digest in sorted(stubs.items()):
            target = self.disk.root / path
            # A plain file only: a symlink or folder put there is the user's doing.
            if path in skip or target.is_symlink() or not target.is_file():
                continue
            current = self.disk.read(path)
            if current is not None and sha256_hex(current) == digest:
                self.actions.append(Action("delete", path, "user", before=current))

    def state_file(self, text: str) -> None:
        new = text.encode("utf-8")
        current = self.disk.read(STATE_PATH)
        if current == new:
            self.actions.append(Action("keep", STATE_PATH, "state"))
        else:
            kind: ActionKind = "create" if current is None else "update"
            self.actions.append(Action(kind, STATE_PATH, "state", content=new, before=current))


def plan_actions(
    root: Path,
    plan: RenderPlan,
    *,
    recorded: Mapping[str, str] | None,
    state_text: str,
    moves: Sequence[Move] = (),
    force: bool = False,
    keep_retired: Collection[str] = (),
    retired_stubs: Mapping[str, str] | None = None,
) -> ApplyPlan:
    """Decide what to do with every file; reads the disk, writes nothing.

    `recorded` is the previous state's generated path → sha256 (None: there is no state file);
    `state_text` the new state file; `keep_retired` recorded paths never deleted;
    `retired_stubs` removed tools' user files → the sha256 of the stub mcpgen created there.
    """
    for planned in plan.files:
        _check_inside(root, planned.path, "the manifest's files")
    for move in moves:
        _check_inside(root, move.source, STATE_PATH)
        _check_inside(root, move.target, "the manifest's files")
    for path in [*(recorded or ()), *(retired_stubs or ())]:
        _check_inside(root, path, STATE_PATH)
    planner = _Planner(_Disk(root), recorded, force)
    dangling: list[str] = []
    moved_away: set[str] = set()
    moved_in: set[str] = set()
    # A swap or cycle of renames: a target that is itself a source leaves first (two phases).
    sources = {m.source for m in moves if os.path.lexists(root / m.source)}
    for move in moves:
        if planner.move(move, sources):
            moved_away.add(move.source)
            moved_in.add(move.target)
    for planned in plan.files:
        content = planned.content.encode("utf-8")
        if planned.owner == "generated":
            planner.generated(planned.path, content)
        elif planned.owner == "local":
            planner.local(planned.path, content)
        else:
            exists = os.path.lexists(root / planned.path)
            if exists and not (root / planned.path).exists():
                dangling.append(planned.path)
            present = (exists and planned.path not in moved_away) or planned.path in moved_in
            planner.user(planned.path, content, present)
    planned_paths = {f.path for f in plan.files}
    for path in sorted(set(planner.recorded) - planned_paths - set(keep_retired)):
        planner.retired(path)
    planner.retired_stubs(retired_stubs or {}, skip=planned_paths | moved_away)
    planner.state_file(state_text)
    return ApplyPlan(
        tuple(planner.actions),
        tuple(planner.conflicts),
        tuple(planner.forced),
        tuple(planner.skipped_moves),
        tuple(dangling),
    )


def _steps(actions: Iterable[Action]) -> list[transaction.Step]:
    # Moves first (their targets must be free), then writes, deletes, and the state file last.
    order = {"move": 0, "create": 1, "update": 1, "delete": 2}
    changes = sorted(
        (a for a in actions if a.writes),
        key=lambda a: (a.owner == "state", order[a.kind]),
    )
    steps: list[transaction.Step] = []
    for action in changes:
        expect = sha256_hex(action.before) if action.before is not None else None
        if action.kind == "move":
            steps.append(transaction.Step("move", action.path, source=action.source))
        elif action.kind == "delete":
            steps.append(transaction.Step("delete", action.path, expect=expect))
        elif action.owner == "user":
            # Created only if still absent when written: the user may save it meanwhile.
            steps.append(transaction.Step("create", action.path, content=action.content))
        else:
            steps.append(
                transaction.Step("write", action.path, content=action.content, expect=expect)
            )
    return steps


def conflict_error(conflicts: Sequence[Conflict]) -> McpgenError:
    """The refusal message: every file, why, and how to proceed."""
    lines = [f"  {c.path}: {c.reason}" for c in conflicts]
    noun = "file" if len(conflicts) == 1 else "files"
    return McpgenError(
        f"refusing to write: {len(conflicts)} generated {noun} changed by hand; "
        "nothing was written\n"
        + "\n".join(lines)
        + "\nMove your change into a handler (src/<package>/handlers/), or run "
        "`mcpgen generate --force` to overwrite (the current file is kept as <file>.orig).",
        exit_code=ExitCode.CONFLICT,
    )


def commit(
    root: Path, applied: ApplyPlan, *, hook: transaction.StepHook | None = None
) -> transaction.CommitResult:
    """Write the plan, all or nothing; refuses (exit 3) when a conflict is left."""
    if applied.conflicts:
        raise conflict_error(applied.conflicts)
    return transaction.commit(root, _steps(applied.actions), hook=hook)
