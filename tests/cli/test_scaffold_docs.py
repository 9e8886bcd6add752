"""What a fresh project says about itself: its README names every file `generate` owns, and
its .gitignore keeps out what test runs and secrets leave behind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcpgen.manifest.model import build_manifest
from mcpgen.render.plan import render_plan
from tests.support.cli_runner import run_cli

# A catalog (resources, templates, prompts) adds generated files a tools-only project lacks.
CATALOG = {
    "resources": [{"uri": "notes://readme", "name": "readme", "text": "hi"}],
    "prompts": [{"name": "greet"}],
}


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scaffold") / "acme-crm"
    done = run_cli("new", "acme-crm", "--dir", str(root), "--no-input", "--no-git")
    assert done.returncode == 0, done.stderr
    return root


def _named_paths(readme: str) -> set[str]:
    """Every `path` the README writes in backticks."""
    return set(re.findall(r"`([^`\s]+)`", readme))


def _covered(path: str, named: set[str]) -> bool:
    return path in named or any(n.endswith("/") and path.startswith(n) for n in named)


@pytest.mark.parametrize("catalog", [False, True], ids=["tools", "catalog"])
def test_readme_names_every_generated_path(scaffolded: Path, catalog: bool) -> None:
    raw = {
        "name": "acme-crm",
        "version": "0.1.0",
        "tools": [{"name": "ping", "input_schema": {"type": "object"}}],
    }
    manifest = build_manifest({**raw, **(CATALOG if catalog else {})})
    generated = [f.path for f in render_plan(manifest).by_owner("generated")]
    named = _named_paths((scaffolded / "README.md").read_text())
    assert [path for path in generated if not _covered(path, named)] == []


def test_readme_names_mcpgen_records(scaffolded: Path) -> None:
    named = _named_paths((scaffolded / "README.md").read_text())
    assert {".mcpgen/state.json", ".mcpgen/scaffold.json"} <= named


def test_gitignore_keeps_out_test_databases_and_secrets(scaffolded: Path) -> None:
    ignored = (scaffolded / ".gitignore").read_text().splitlines()
    assert {".hypothesis/", ".env", ".env.*"} <= set(ignored)
