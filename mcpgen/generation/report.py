"""What a generate run decided and did (`GenerateReport`), and what it decided before the
first write (`Prepared`): the values `mcpgen.generation` hands its callers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mcpgen.errors import Diagnostic
from mcpgen.generation.changes import ChangeSummary
from mcpgen.write import apply
from mcpgen.write.diff import unified_diff

if TYPE_CHECKING:
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
        """The project files the run would change (see `ApplyPlan.stale`)."""
        return self.applied.stale()

    def diff(self) -> str:
        """A unified diff of every action, for `--diff`."""
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
