"""One generate run: load the manifest, render, summarise, decide, then write (or not).

Prints nothing: the run's decisions and outcome come back as a `GenerateReport`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from mcpgen.errors import Diagnostic, ManifestInvalid, McpgenError, interrupted_after_writing
from mcpgen.generation import run_cache, run_record
from mcpgen.generation.changes import (
    explicit_python_names,
    find_old_packages,
    find_orphans,
    is_in_old_package,
    keep_python_names,
    keep_user_paths,
    summarise,
)
from mcpgen.generation.report import GenerateReport, Mode, Prepared
from mcpgen.write import apply, journal, transaction
from mcpgen.write.lock import project_lock
from mcpgen.write.state import State, load_state, render_state, sha256_hex, snapshot

if TYPE_CHECKING:  # the renderer loads only when a run renders (see `run_cache`)
    from mcpgen.manifest.model import Manifest
    from mcpgen.render.plan import RenderPlan


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
    from mcpgen.generation.catalog_changes import (
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


# Ctrl-C before this run's commit began: an earlier run's interrupted write, if one was being
# recovered, is finished or undone by the next run (its journal stays until then).
NOTHING_WRITTEN = "Interrupted: nothing was written."


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
    try:
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
    except KeyboardInterrupt:  # before the commit began (the commit reports its own)
        raise McpgenError(NOTHING_WRITTEN, exit_code=130) from None


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
    seen = run_record.SeenInputs.read(root, manifest_path) if cacheable else None
    if seen is not None and recovered is None:
        outcome = run_cache.lookup(root, seen.key, seen.manifest)
        if outcome is not None:
            report = run_record.proven_report(root, mode, outcome)
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
    try:
        return _after_commit(
            root, mode, prepared, result=result, written=written, seen=seen, recovered=recovered
        )
    except KeyboardInterrupt:  # Ctrl-C once the commit is over: everything is on disk
        if written:
            raise interrupted_after_writing() from None
        raise McpgenError(NOTHING_WRITTEN, exit_code=130) from None


def _after_commit(
    root: Path,
    mode: Mode,
    prepared: Prepared,
    *,
    result: transaction.CommitResult | None,
    written: bool,
    seen: run_record.SeenInputs | None,
    recovered: str | None,
) -> GenerateReport:
    """The report of a run whose writing is over: what it left behind, and the run cache."""
    applied = prepared.applied
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
        run_record.remember(root, seen, prepared, report)
    return report
