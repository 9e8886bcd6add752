"""Real servers' tools/list arrays and the corpus manifests (tests/corpus/) validate with no
errors: the manifest checks and the reference validator agree on every real schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from mcpgen.errors import Diagnostic
from mcpgen.manifest import check_manifest, check_text
from tests.support.corpus import manifest_files, real_files

REAL = real_files()
MANIFESTS = manifest_files()


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


@pytest.mark.parametrize("path", MANIFESTS, ids=[p.stem for p in MANIFESTS])
def test_corpus_manifest_validates_clean(path: Path) -> None:
    manifest, diagnostics = check_manifest(path)
    assert errors_of(diagnostics) == []
    assert manifest is not None
    assert manifest.tools
