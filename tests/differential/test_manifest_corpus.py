"""Real servers' tools/list arrays and the shared corpus manifests validate with no errors.

The corpus lives beside the clone (`../shared/corpus`), as it does in CI.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from mcpgen.errors import Diagnostic
from mcpgen.manifest import check_manifest, check_text

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"
REAL = sorted((CORPUS / "real").glob("*.json"))
MANIFESTS = sorted((CORPUS / "manifests").glob("*.yaml"))
MISSING = (
    f"shared corpus not found at {CORPUS.resolve()} (CI keeps a copy of shared/ beside the clone)"
)


def as_manifest_yaml(name: str, tools: list[object]) -> str:
    """A tools/list array pasted into a manifest, as a user would: camelCase keys untouched."""
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.width = 4096
    text = io.StringIO()
    yaml.dump({"name": name, "version": "1.0.0", "tools": tools}, text)
    return text.getvalue()


def errors_of(diagnostics: list[Diagnostic]) -> list[str]:
    return [str(d) for d in diagnostics if d.level == "error"]


@pytest.mark.skipif(not REAL, reason=MISSING)
@pytest.mark.parametrize("server", REAL, ids=[p.stem for p in REAL])
def test_real_server_tools_validate_clean(server: Path) -> None:
    tools = json.loads(server.read_text(encoding="utf-8"))
    manifest, diagnostics = check_text(as_manifest_yaml(server.stem, tools), f"{server.stem}.yaml")
    assert errors_of(diagnostics) == []
    assert manifest is not None
    # The schemas survive YAML unchanged, so tools/list can publish them exactly.
    assert [tool.wire() for tool in manifest.tools] == [
        {k: v for k, v in tool.items() if k != "annotations" or v is not None} for tool in tools
    ]


@pytest.mark.skipif(not MANIFESTS, reason=MISSING)
@pytest.mark.parametrize("path", MANIFESTS, ids=[p.stem for p in MANIFESTS])
def test_corpus_manifest_validates_clean(path: Path) -> None:
    manifest, diagnostics = check_manifest(path)
    assert errors_of(diagnostics) == []
    assert manifest is not None
    assert manifest.tools
