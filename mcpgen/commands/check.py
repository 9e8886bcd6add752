"""`mcpgen check`: the manifest is valid, generated code is current, handlers fit. Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mcpgen.errors import Diagnostic, ManifestInvalid
from mcpgen.generation.handler_check import HandlerProblem
from mcpgen.manifest.model import Manifest
from mcpgen.write.apply import ApplyPlan


@dataclass(frozen=True)
class CheckReport:
    """Everything `mcpgen check` found; `failures` empty means the project is fine."""

    manifest: Manifest
    warnings: tuple[Diagnostic, ...]  # the manifest's (errors raise ManifestInvalid)
    applied: ApplyPlan  # what a generate run would do: its stale files
    handler_problems: tuple[HandlerProblem, ...]
    orphans: tuple[str, ...]
    old_packages: tuple[str, ...]
    recovered: str | None = None  # a killed run's write this check finished or undid first
    handler_count: int = 0  # tool, resource, template, prompt and completion handlers checked
    # What static reading could not verify (a handler assigned, imported from outside the
    # project ...): said, never a failure.
    handler_notes: tuple[HandlerProblem, ...] = ()

    @property
    def failures(self) -> list[str]:
        """What failed, in words: stale generated files, handler problems."""
        found = (
            ("stale generated files", bool(self.applied.stale())),
            ("handler problems", bool(self.handler_problems)),
        )
        return [what for what, bad in found if bad]


def check_project(manifest_path: Path) -> CheckReport:
    """Load and validate the manifest once, then judge the project around it.

    Raises ManifestInvalid (with every diagnostic) for a bad manifest.
    """
    from mcpgen.generation import prepare
    from mcpgen.generation.changes import find_old_packages, find_orphans
    from mcpgen.generation.engine import project_session
    from mcpgen.generation.handler_check import check_handlers
    from mcpgen.manifest import check_manifest
    from mcpgen.scaffold.template import with_scaffold_names

    loaded, diagnostics = check_manifest(manifest_path)
    if loaded is None:
        raise ManifestInvalid(diagnostics)
    root = manifest_path.parent
    manifest = with_scaffold_names(loaded, root)
    # Waits for no one; a write a killed run left behind is finished or undone first.
    with project_session(root, writes=False) as recovered:
        prepared = prepare(root, manifest_path=manifest_path, manifest=manifest)
    manifest = prepared.manifest  # with the Python names on record (stable through renames)
    old_packages = find_old_packages(root, manifest.package)
    handlers = [f for f in prepared.plan.by_owner("user") if f.tool or f.catalog]
    handler_count = len([f for f in handlers if Path(f.path).parent.name == "handlers"])
    found = check_handlers(root, manifest, prepared.plan)
    return CheckReport(
        manifest,
        tuple(diagnostics),
        prepared.applied,
        tuple(p for p in found if p.certain),
        find_orphans(
            root,
            manifest,
            prepared.plan,
            # a removed tool's unedited stubs: the stale list says generate deletes them
            leaving=[
                a.path for a in prepared.applied.changes if a.kind == "delete" and a.owner == "user"
            ],
            old_packages=old_packages,
        ),
        old_packages,
        recovered,
        handler_count,
        tuple(p for p in found if not p.certain),
    )
