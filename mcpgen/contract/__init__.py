"""The client contract: what a server publishes (tools, resources, templates, prompts), and
which changes to it break a client built against the previous version.

    diff = compare(old_manifest, new_manifest)
    diff.breaking, diff.suggested_version, diff.bumped_enough
"""

from __future__ import annotations

from dataclasses import dataclass

from mcpgen.contract.catalog import ContractChange, contract_changes
from mcpgen.contract.version import reaches, suggested_version
from mcpgen.manifest.model import Manifest

__all__ = ["ContractChange", "ContractDiff", "compare"]


@dataclass(frozen=True)
class ContractDiff:
    """The changes between two versions of a manifest, and the versions on either side."""

    changes: tuple[ContractChange, ...]
    old_version: str
    new_version: str

    @property
    def breaking(self) -> bool:
        """Whether any change breaks an existing client."""
        return any(change.breaking for change in self.changes)

    @property
    def suggested_version(self) -> str:
        """The version after the old one that these changes call for."""
        return suggested_version(
            self.old_version, breaking=self.breaking, changed=bool(self.changes)
        )

    @property
    def bumped_enough(self) -> bool:
        """False when a change is breaking and the version was not raised that far."""
        return not self.breaking or reaches(self.new_version, self.suggested_version)


def compare(old: Manifest, new: Manifest) -> ContractDiff:
    """The client-facing changes from `old` to `new`."""
    return ContractDiff(tuple(contract_changes(old, new)), old.version, new.version)
