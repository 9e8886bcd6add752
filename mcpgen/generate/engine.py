"""One generate run: load the manifest, render, summarise, decide, then write (or not).

Prints nothing: the run's decisions and outcome come back as a `GenerateReport`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mcpgen.errors import Diagnostic, ManifestInvalid, McpgenError
from mcpgen.generate import run_cache
from mcpgen.generate.changes import (
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
from mcpgen.write.state import STATE_PATH, State, load_state, render_state, sha256_hex, snapshot

if TYPE_CHECKING:  # the renderer loads only when a run renders (see `run_cache`)
    from mcpgen.manifest.model import Manifest
    from mcpgen.render.plan import RenderPlan

# write: the normal run; check: report staleness only; diff: compute what would change only.
Mode = Literal["write", "check", "diff"]


@dataclass(frozen=True)
class GenerateReport:
    """What a run decided and did."""

    root: Path
    mode: Mode
    package: str  # the manifest's Python package
    summary: ChangeSummary
    applied: apply.ApplyPlan
    orphans: tuple[str, ...]
    written: bool
    old_packages: tuple[str, ...] = ()  # generated packages the manifest's `package:` left
    state_missing: bool = False  # generated files existed but .mcpgen/state.json did not
    warnings: tuple[Diagnostic, ...] = ()  # the manifest's; errors raise ManifestInvalid
    recovered: str | None = None  # a killed run's write this run finished or undid first
    reused: tuple[str, ...] = ()  # new tools that took over a handler left on disk
    notes: tuple[str, ...] = ()  # where the commit did less than planned, and why

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
    warnings: tuple[Diagnostic, ...] = ()  # the manifest's; errors raise ManifestInvalid
    reused: tuple[str, ...] = ()  # new tools that take over a handler left on disk
    recovered: str | None = None  # a killed run's write this run finished or undid first
    state_text: str = ""  # the state file this run leaves


def _reused_files(root: Path, prepared: Prepared) -> list[str]:
    """A new tool whose handler or test is already on disk (an orphan of a removed tool of
    the same Python name) takes it over as it is: say so, it may not fit the new tool."""
    if prepared.summary.first_run:  # `mcpgen new` made the example handlers: not news
        return []
    added = set(prepared.summary.added)
    added_entries = set(prepared.summary.catalog.added)
    moved_in = {a.path for a in prepared.applied.changes if a.kind == "move"}
    found = []
    for f in prepared.plan.by_owner("user"):
        entry = (f.catalog.kind, f.catalog.name) if f.catalog is not None else None
        owner = f.tool if f.tool in added else entry[1] if entry in added_entries else None
        if owner and f.path not in moved_in and os.path.lexists(root / f.path):
            found.append(
                f"{owner}: uses the existing {f.path} (left from before; check that it fits)"
            )
    return found


def _check_package(root: Path, package: str) -> None:
    """The package names a folder under src/: from a cloned `.copier-answers.yml` it must
    still be a plain Python name, never a path."""
    from mcpgen.core.names import is_identifier
    from mcpgen.scaffold.template import ANSWERS_FILE

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
    root: Path,
    manifest_path: Path | None = None,
    previous: State | None = None,
    manifest: Manifest | None = None,
) -> tuple[Manifest, RenderPlan, tuple[Diagnostic, ...]]:
    """The manifest (default `root/mcpgen.yaml`; `manifest` when the caller loaded it
    already, with its scaffold names), its render plan, and the manifest's warnings.

    Raises ManifestInvalid with every problem of a bad manifest.
    """
    from mcpgen.generate.catalog_changes import (
        explicit_catalog_python_names,
        keep_catalog_python_names,
    )
    from mcpgen.manifest import check_manifest, find_manifest
    from mcpgen.render.layout import format_python
    from mcpgen.render.plan import render_plan
    from mcpgen.scaffold.template import with_scaffold_names

    warnings: tuple[Diagnostic, ...] = ()
    path = manifest_path or find_manifest(root)
    if manifest is None:
        loaded, diagnostics = check_manifest(path)
        if loaded is None:
            raise ManifestInvalid(diagnostics)
        manifest, warnings = with_scaffold_names(loaded, path.parent), tuple(diagnostics)
    # A renamed tool keeps the Python names on record unless the manifest spells them out.
    manifest = keep_python_names(manifest, previous, explicit_python_names(path))
    manifest = keep_catalog_python_names(manifest, previous, explicit_catalog_python_names(path))
    _check_package(root, manifest.package)
    plan = render_plan(manifest, _models_as_written(root, manifest, previous))
    plan = keep_user_paths(plan, previous, manifest)
    existing = [f.path for f in plan.by_owner("user") if (root / f.path).exists()]
    plan = format_python(plan, manifest.package, skip=existing)
    return manifest, plan, warnings


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


def prepare(
    root: Path,
    *,
    force: bool = False,
    manifest_path: Path | None = None,
    manifest: Manifest | None = None,
) -> Prepared:
    """Decide every action of a run; reads the disk, writes nothing."""
    previous = load_state(root)
    manifest, plan, warnings = load(root, manifest_path, previous, manifest)
    summary = summarise(previous, manifest, plan, root)
    recorded = previous.files if previous else None
    state_text = render_state(snapshot(manifest, plan, previous=previous))
    applied = apply.plan_actions(
        root,
        plan,
        recorded=recorded,
        state_text=state_text,
        moves=summary.moves,
        force=force,
        # After a `package:` change the old package stays whole: the scaffold's pyproject.toml
        # still points at it until the user moves over, and its handlers are theirs.
        keep_retired=[p for p in recorded or () if is_in_old_package(p, manifest)],
        retired_stubs=summary.retired_digests,
    )
    state_missing = previous is None and any(
        (root / f.path).exists() for f in plan.by_owner("generated")
    )
    prepared = Prepared(
        manifest, plan, summary, applied, state_missing, warnings, state_text=state_text
    )
    return replace(prepared, reused=tuple(_reused_files(root, prepared)))


def generate_project(
    root: Path,
    *,
    force: bool = False,
    mode: Mode = "write",
    hook: transaction.StepHook | None = None,
    manifest_path: Path | None = None,
    on_plan: Callable[[Prepared | GenerateReport], None] | None = None,
) -> GenerateReport:
    """Bring `root` in line with its manifest; the report says what was decided and done.

    Raises McpgenError: ManifestInvalid for a bad manifest (nothing written), exit code 3
    for hand-edited generated files without `force` (nothing written). `mode="check"` and
    `mode="diff"` never write; the caller reads `report.stale` / `report.diff()`.
    `on_plan` sees every decision before the first write (the CLI prints the summary then);
    a run that `run_cache` proves to change nothing hands it the finished report instead.
    """
    root = root.resolve()
    with project_session(root, writes=mode == "write") as recovered:
        return _generate(
            root,
            force=force,
            mode=mode,
            hook=hook,
            manifest_path=manifest_path,
            on_plan=on_plan,
            recovered=recovered,
        )


@contextmanager
def project_session(root: Path, *, writes: bool = True) -> Iterator[str | None]:
    """Hold the project's lock and first finish or undo a write a killed run left behind;
    yields what was recovered, in words, or None. A run that `writes` nothing also works
    where the lock cannot be taken for writing (a read-only checkout)."""
    with project_lock(root, reading=not writes):
        yield journal.recover(root)


def _commit_notes(applied: apply.ApplyPlan, result: transaction.CommitResult | None) -> list[str]:
    """Where the run did less than planned, so that the plan printed stays true."""
    kept, backups = (result.kept, result.backups) if result is not None else ((), ())
    lines = [
        f"Kept your {path}: it appeared while mcpgen was writing, so the stub was not written"
        for path in kept
    ]
    lines += [
        f"Kept {path}: it holds bytes written while mcpgen was writing; compare and delete it"
        for path in backups
    ]
    lines += [
        f"Did not move {m.source} → {m.target}: {m.target} already exists; both are kept"
        for m in applied.skipped_moves
    ]
    lines += [
        f"Kept the symlink {path}: it points to nothing; fix or remove it to get a stub"
        for path in applied.dangling
    ]
    return lines


def _generate(
    root: Path,
    *,
    force: bool,
    mode: Mode,
    hook: transaction.StepHook | None,
    manifest_path: Path | None,
    on_plan: Callable[[Prepared | GenerateReport], None] | None,
    recovered: str | None,
) -> GenerateReport:
    cacheable = hook is None and not force
    seen = _Seen.read(root, manifest_path) if cacheable else None
    if seen is not None and recovered is None:
        outcome = run_cache.lookup(root, seen.key, seen.manifest)
        if outcome is not None:
            report = _proven_report(root, mode, outcome)
            if on_plan is not None:
                on_plan(report)
            return report
    prepared = replace(prepare(root, force=force, manifest_path=manifest_path), recovered=recovered)
    if on_plan is not None:
        on_plan(prepared)
    applied = prepared.applied
    written = False
    result = None
    if mode == "write":
        try:
            result = apply.commit(root, applied, hook=hook)
        except KeyboardInterrupt:
            raise McpgenError(
                "Interrupted: every change was undone, nothing was written.", exit_code=130
            ) from None
        written = bool(applied.changes)
    leaving = [a.source for a in applied.changes if a.source is not None and not written]
    leaving += [a.path for a in applied.changes if a.kind == "delete" and a.owner == "user"]
    old_packages = find_old_packages(root, prepared.manifest.package)
    orphans = find_orphans(
        root, prepared.manifest, prepared.plan, leaving=leaving, old_packages=old_packages
    )
    report = GenerateReport(
        root,
        mode,
        prepared.manifest.package,
        prepared.summary,
        applied,
        orphans,
        written,
        old_packages,
        prepared.state_missing,
        prepared.warnings,
        recovered=recovered,
        reused=prepared.reused,
        notes=tuple(_commit_notes(applied, result)),
    )
    if seen is not None:
        _remember(root, seen, prepared, report)
    return report


@dataclass(frozen=True)
class _Seen:
    """The inputs a run reads outside the render, as they were when it started."""

    key: str  # the manifest as the caller named it, and the folder that name is relative to
    path: Path
    manifest: bytes
    answers: bytes | None

    @classmethod
    def read(cls, root: Path, manifest_path: Path | None) -> _Seen | None:
        from mcpgen.manifest import find_manifest
        from mcpgen.scaffold.template import ANSWERS_FILE

        path = manifest_path or find_manifest(root)
        try:
            manifest = path.read_bytes()
        except OSError:
            return None  # the full run reports it
        return cls(f"{os.getcwd()}|{path}", path, manifest, _read_or_none(root / ANSWERS_FILE))


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _proven_report(root: Path, mode: Mode, outcome: run_cache.Outcome) -> GenerateReport:
    """The report of a run that `run_cache` proved would change nothing."""
    kept = tuple(apply.Action("keep", path, owner) for path, owner in outcome.kept)
    return GenerateReport(
        root,
        mode,
        outcome.package,
        ChangeSummary(first_run=False),
        apply.ApplyPlan(kept),
        outcome.orphans,
        written=False,
        old_packages=outcome.old_packages,
        warnings=outcome.warnings,
    )


def _remember(root: Path, seen: _Seen, prepared: Prepared, report: GenerateReport) -> None:
    """Record a run that left the project as its manifest renders it (see `run_cache`)."""
    from mcpgen.core.relpath import lexical_problem
    from mcpgen.generate.changes import orphan_folders
    from mcpgen.scaffold.template import ANSWERS_FILE

    applied = report.applied
    if applied.conflicts or applied.dangling or applied.skipped_moves or report.notes:
        return  # the disk is not what the plan says
    if report.mode != "write" and applied.changes:
        return
    if seen.path.parent.resolve() != root:
        return  # resource files are relative to the manifest's folder: keep it simple
    if _read_or_none(seen.path) != seen.manifest:
        return  # saved while the run read it: the run may have used either version
    if _read_or_none(root / ANSWERS_FILE) != seen.answers:
        return
    manifest, plan = prepared.manifest, prepared.plan
    contents: dict[str, str | None] = {
        f.path: sha256_hex(f.content.encode("utf-8")) for f in plan.files if f.owner != "user"
    }
    contents[STATE_PATH] = sha256_hex(prepared.state_text.encode("utf-8"))
    contents[journal.JOURNAL_PATH] = None
    contents[ANSWERS_FILE] = sha256_hex(seen.answers) if seen.answers is not None else None
    for resource in manifest.resources:
        if resource.file is not None and resource.content is not None:
            if lexical_problem(resource.file) is not None:
                return
            contents[resource.file] = sha256_hex(resource.content)
    inputs = run_cache.Inputs(
        manifest_arg=seen.key,
        manifest_sha=sha256_hex(seen.manifest),
        contents=contents,
        presence=[f.path for f in plan.by_owner("user")],
        folders=[*orphan_folders(manifest, plan, report.old_packages), "src", "tests"],
        package=manifest.package,
    )
    outcome = run_cache.Outcome(
        package=report.package,
        warnings=report.warnings,
        orphans=report.orphans,
        old_packages=report.old_packages,
        kept=(*((f.path, f.owner) for f in plan.files), (STATE_PATH, "state")),
    )

    def still_true() -> bool:
        old_packages = find_old_packages(root, manifest.package)
        orphans = find_orphans(root, manifest, plan, old_packages=old_packages)
        return old_packages == report.old_packages and orphans == report.orphans

    run_cache.store(root, inputs, outcome, still_true)
