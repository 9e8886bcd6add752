"""One generate run: load the manifest, render, summarise, decide, then write (or not).

Prints nothing: the run's decisions and outcome come back as a `GenerateReport`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mcpgen.errors import Diagnostic, ManifestInvalid
from mcpgen.manifest.model import Manifest
from mcpgen.render.plan import RenderPlan
from mcpgen.sync.changes import (
    ChangeSummary,
    find_old_packages,
    find_orphans,
    is_in_old_package,
    summarise,
)
from mcpgen.write import apply, transaction
from mcpgen.write.diff import unified_diff
from mcpgen.write.state import State, load_state, render_state, sha256_hex, snapshot

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
    from mcpgen.manifest import check_manifest, find_manifest
    from mcpgen.render.layout import format_python
    from mcpgen.render.plan import render_plan
    from mcpgen.scaffold import with_scaffold_names

    warnings: tuple[Diagnostic, ...] = ()
    if manifest is None:
        path = manifest_path or find_manifest(root)
        loaded, diagnostics = check_manifest(path)
        if loaded is None:
            raise ManifestInvalid(diagnostics)
        manifest, warnings = with_scaffold_names(loaded, path.parent), tuple(diagnostics)
    plan = render_plan(manifest, _models_as_written(root, manifest, previous))
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
    return Prepared(manifest, plan, summary, applied, state_missing, warnings)


def generate_project(
    root: Path,
    *,
    force: bool = False,
    mode: Mode = "write",
    hook: transaction.StepHook | None = None,
    manifest_path: Path | None = None,
    on_plan: Callable[[Prepared], None] | None = None,
) -> GenerateReport:
    """Bring `root` in line with its manifest; the report says what was decided and done.

    Raises McpgenError: ManifestInvalid for a bad manifest (nothing written), exit code 3
    for hand-edited generated files without `force` (nothing written). `mode="check"` and
    `mode="diff"` never write; the caller reads `report.stale` / `report.diff()`.
    `on_plan` sees every decision before the first write (the CLI prints the summary then).
    """
    root = root.resolve()
    prepared = prepare(root, force=force, manifest_path=manifest_path)
    if on_plan is not None:
        on_plan(prepared)
    applied = prepared.applied
    written = False
    if mode == "write":
        apply.commit(root, applied, hook=hook)
        written = bool(applied.changes)
    leaving = [a.source for a in applied.changes if a.source is not None and not written]
    old_packages = find_old_packages(root, prepared.manifest)
    orphans = find_orphans(
        root, prepared.manifest, prepared.plan, leaving=leaving, old_packages=old_packages
    )
    return GenerateReport(
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
    )
