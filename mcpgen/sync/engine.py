"""One generate run: load the manifest, render, summarise, decide, print, then write (or not)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rich.console import Console
from rich.markup import escape

from mcpgen.errors import McpgenError
from mcpgen.manifest.model import Manifest
from mcpgen.render.plan_types import RenderPlan
from mcpgen.sync import report
from mcpgen.sync.changes import (
    ChangeSummary,
    explicit_python_names,
    find_old_packages,
    find_orphans,
    is_in_old_package,
    keep_python_names,
    keep_user_paths,
    summarise,
)
from mcpgen.write import apply, journal, transaction
from mcpgen.write.diff import unified_diff
from mcpgen.write.lock import project_lock
from mcpgen.write.state import State, load_state, render_state, sha256_hex, snapshot

# write: the normal run; check: report staleness only; diff: compute what would change only.
Mode = Literal["write", "check", "diff"]


@dataclass(frozen=True)
class GenerateReport:
    """What a run decided and did."""

    root: Path
    summary: ChangeSummary
    applied: apply.ApplyPlan
    orphans: tuple[str, ...]
    written: bool
    old_packages: tuple[str, ...] = ()  # generated packages the manifest's `package:` left

    @property
    def up_to_date(self) -> bool:
        """Nothing to write besides machine-specific files and the state file."""
        return not self.stale

    @property
    def stale(self) -> list[str]:
        return self.applied.stale()

    def diff(self) -> str:
        return unified_diff(self.applied.actions)


@dataclass(frozen=True)
class Prepared:
    """Everything decided before the first write."""

    manifest: Manifest
    plan: RenderPlan
    summary: ChangeSummary
    applied: apply.ApplyPlan
    state_missing: bool  # generated files exist but .mcpgen/state.json does not


def _reused_files(root: Path, prepared: Prepared) -> list[str]:
    """A new tool whose handler or test is already on disk (an orphan of a removed tool of
    the same Python name) takes it over as it is: say so, it may not fit the new tool."""
    if prepared.summary.first_run:  # `mcpgen new` made the example handlers: not news
        return []
    added = set(prepared.summary.added)
    moved_in = {a.path for a in prepared.applied.changes if a.kind == "move"}
    return [
        f"{f.tool}: uses the existing {f.path} (left from before; check that it fits)"
        for f in prepared.plan.by_owner("user")
        if f.tool in added and f.path not in moved_in and os.path.lexists(root / f.path)
    ]


def _check_package(root: Path, package: str) -> None:
    """The package names a folder under src/: from a cloned `.copier-answers.yml` it must
    still be a plain Python name, never a path."""
    from mcpgen.names import is_identifier
    from mcpgen.sync.scaffold_update import ANSWERS_FILE

    if is_identifier(package):
        return
    try:
        lines = (root / ANSWERS_FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    line = next((n for n, text in enumerate(lines, 1) if text.startswith("package:")), None)
    where = f"{ANSWERS_FILE}:{line}:1" if line else "the manifest"
    raise McpgenError(
        f"{where}: refusing package {package!r}: not a Python package name, so its files "
        "would land outside src/; nothing was written"
    )


def load(
    root: Path, manifest_path: Path | None = None, previous: State | None = None
) -> tuple[Manifest, RenderPlan]:
    """The manifest (default `root/mcpgen.yaml`) and its render plan.

    Raises ManifestInvalid with every problem of a bad manifest.
    """
    from mcpgen.manifest import find_manifest
    from mcpgen.render.plan import render_plan
    from mcpgen.scaffold import project_manifest

    path = manifest_path or find_manifest(root)
    manifest = keep_python_names(project_manifest(path), previous, explicit_python_names(path))
    _check_package(path.parent, manifest.package)
    plan = render_plan(manifest, root, _models_as_written(root, manifest, previous))
    return manifest, keep_user_paths(plan, previous, manifest)


def _models_as_written(root: Path, manifest: Manifest, previous: State | None) -> str | None:
    """models.py as mcpgen last wrote it, or None if it is missing or was edited since."""
    from mcpgen.render.plan import models_path

    path = models_path(manifest)
    recorded = previous.files.get(path) if previous is not None else None
    try:
        data = (root / path).read_bytes()
    except OSError:
        return None
    if recorded is None or sha256_hex(data) != recorded:
        return None
    return data.decode("utf-8")


def prepare(root: Path, *, force: bool = False, manifest_path: Path | None = None) -> Prepared:
    """Decide every action of a run; reads the disk, writes nothing."""
    previous = load_state(root)
    manifest, plan = load(root, manifest_path, previous)
    summary = summarise(previous, manifest, plan)
    recorded = previous.files if previous else None
    applied = apply.plan_actions(
        root,
        plan,
        recorded=recorded,
        state_text=render_state(snapshot(manifest, plan)),
        moves=summary.moves,
        force=force,
        # After a `package:` change the old package stays whole: the scaffold's pyproject.toml
        # still points at it until the user moves over, and its handlers are theirs.
        keep_retired=[p for p in recorded or () if is_in_old_package(p, manifest)],
    )
    state_missing = previous is None and any(
        (root / f.path).exists() for f in plan.by_owner("generated")
    )
    return Prepared(manifest, plan, summary, applied, state_missing)


def generate_project(
    root: Path,
    *,
    force: bool = False,
    console: Console | None = None,
    mode: Mode = "write",
    hook: transaction.StepHook | None = None,
    manifest_path: Path | None = None,
) -> GenerateReport:
    """Bring `root` in line with its manifest, printing what happens in plain words.

    Raises McpgenError: ManifestInvalid for a bad manifest (nothing written), exit code 3
    for hand-edited generated files without `force` (nothing written). `mode="check"` and
    `mode="diff"` never write; the caller reads `report.stale` / `report.diff()`.
    """
    console = console if console is not None else Console(stderr=True, highlight=False)
    root = root.resolve()
    with project_session(root, console):
        return _generate(
            root, force=force, console=console, mode=mode, hook=hook, manifest_path=manifest_path
        )


@contextmanager
def project_session(root: Path, console: Console) -> Iterator[None]:
    """Hold the project's lock and first finish or undo a write a killed run left behind."""
    with project_lock(root):
        recovered = journal.recover(root)
        if recovered is not None:
            console.print(f"[yellow]{escape(recovered)}[/]")
        yield


def _generate(
    root: Path,
    *,
    force: bool,
    console: Console,
    mode: Mode,
    hook: transaction.StepHook | None,
    manifest_path: Path | None,
) -> GenerateReport:
    prepared = prepare(root, force=force, manifest_path=manifest_path)
    applied = prepared.applied
    if prepared.state_missing:
        report.print_state_missing(console)
    if mode == "check":
        report.print_stale(console, applied)
    else:
        report.print_summary(console, prepared.summary)
    report.print_notes(console, _reused_files(root, prepared))
    written = False
    if mode == "write":
        try:
            result = apply.commit(root, applied, hook=hook)
        except KeyboardInterrupt:
            console.print("Interrupted: every change was undone, nothing was written.")
            raise
        written = bool(applied.changes)
        report.print_written(console, applied)
        report.print_notes(console, report.commit_notes(applied, result.kept, result.backups))
    else:
        report.print_notes(console, report.commit_notes(applied, (), ()))
    leaving = [a.source for a in applied.changes if a.source is not None and not written]
    orphans = find_orphans(root, prepared.manifest, prepared.plan, leaving=leaving)
    report.print_orphans(console, orphans)
    old_packages = find_old_packages(root, prepared.manifest)
    report.print_old_packages(console, old_packages, prepared.manifest.package)
    return GenerateReport(root, prepared.summary, applied, orphans, written, old_packages)
