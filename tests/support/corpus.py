"""The real-server corpus, kept in tests/corpus/ (its README says where each file comes from):
`real/` holds 20 published servers' `tools/list` arrays, `manifests/` three tricky manifests."""

from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
REAL = CORPUS / "real"  # <server>.json: a tools/list array (or an object with `tools`)
MANIFESTS = CORPUS / "manifests"  # <name>.yaml: mcpgen manifests


def real_files() -> list[Path]:
    """Every server's tools/list file, by name."""
    return sorted(REAL.glob("*.json"))


def manifest_files() -> list[Path]:
    """Every corpus manifest, by name."""
    return sorted(MANIFESTS.glob("*.yaml"))
