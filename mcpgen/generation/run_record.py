"""The run cache's bookkeeping for one run: what the run read outside the render, a report
rebuilt from a proven no-change outcome, and the record a clean run leaves (see `run_cache`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mcpgen.generation import run_cache
from mcpgen.generation.changes import ChangeSummary, find_old_packages, find_orphans
from mcpgen.generation.report import GenerateReport, Mode, Prepared
from mcpgen.write import apply, journal
from mcpgen.write.state import STATE_PATH, sha256_hex

if TYPE_CHECKING:
    from mcpgen.manifest.model import Manifest


@dataclass(frozen=True)
class SeenInputs:
    """The inputs a run reads outside the render, as they were when it started."""

    key: str  # the manifest as the caller named it, and the folder that name is relative to
    path: Path
    manifest: bytes
    answers: bytes | None

    @classmethod
    def read(cls, root: Path, manifest_path: Path | None) -> SeenInputs | None:
        """The manifest's bytes and copier's answers now; None when the manifest cannot be read."""
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


def proven_report(root: Path, mode: Mode, outcome: run_cache.Outcome) -> GenerateReport:
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


def remember(root: Path, seen: SeenInputs, prepared: Prepared, report: GenerateReport) -> None:
    """Record a run that left the project as its manifest renders it (see `run_cache`)."""
    from mcpgen.generation.changes import orphan_folders
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
    embedded = _embedded_files(manifest)
    if embedded is None:
        return
    contents |= embedded
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


def _embedded_files(manifest: Manifest) -> dict[str, str | None] | None:
    """Digest of each project file the manifest read besides itself: resource files and
    OpenAPI specs (read on every run, so a changed spec is never proven up to date); None
    when one of the paths is not a plain one inside the project."""
    from mcpgen.core.relpath import lexical_problem

    found: dict[str, str | None] = {}
    for resource in manifest.resources:
        if resource.file is not None and resource.content is not None:
            if lexical_problem(resource.file) is not None:
                return None
            found[resource.file] = sha256_hex(resource.content)
    for api in manifest.apis:
        if lexical_problem(api.spec) is not None or not api.spec_sha256:
            return None
        found[api.spec] = api.spec_sha256
    return found
