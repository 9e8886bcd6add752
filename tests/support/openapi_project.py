"""An OpenAPI import made by the real CLI against a running prism mock, the environment its
server runs with, and where the per-spec figures go."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from tests.support.openapi_calls import SpecFigures
from tests.support.project_venv import run_mcpgen

FIGURES_ENV = "MCPGEN_OPENAPI_FIGURES"  # a file each spec's figures are appended to, if set
PLACEHOLDER_SECRET = "test-token"  # prism checks that credentials are there, not their value


def import_project(
    spec: Path, root: Path, base_url: str, *include: str, name: str | None = None
) -> Path:
    """`mcpgen import openapi SPEC` into a new project at `root`, as a user would run it."""
    args = ["import", "openapi", str(spec), "--dir", str(root), "--base-url", base_url]
    if include:
        args += ["--include", ",".join(include)]
    if name:
        args += ["--name", name]
    run_mcpgen(*args, "--no-input", "--no-git")
    return root


def manifest(root: Path) -> dict[str, Any]:
    """The project's mcpgen.yaml, read with a plain YAML loader."""
    loaded: dict[str, Any] = YAML(typ="safe").load((root / "mcpgen.yaml").read_text("utf-8"))
    return loaded


def server_script(root: Path) -> str:
    """The console script the project's pyproject.toml declares for its server."""
    document = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    scripts: dict[str, str] = document["project"]["scripts"]
    return next(iter(scripts))


def auth_environment(root: Path) -> dict[str, str]:
    """Placeholder credentials for every auth variable the manifest's OpenAPI sources name."""
    env: dict[str, str] = {}
    for source in manifest(root).get("openapi") or []:
        auth = source.get("auth") or {}
        for key in ("bearer_env", "env"):
            if isinstance(auth.get(key), str):
                env[auth[key]] = PLACEHOLDER_SECRET
        for variable in auth.get("basic_env") or []:
            env[variable] = PLACEHOLDER_SECRET
    return env


def server_environment(root: Path) -> dict[str, str]:
    """The test process's environment with the project's placeholder credentials."""
    return {**os.environ, **auth_environment(root)}


def record_figures(figures: SpecFigures) -> None:
    """Print one spec's figures (shown with `pytest -s`) and append them to $FIGURES_ENV."""
    row = figures.row()
    print("\nopenapi figures: " + json.dumps(row))
    if target := os.environ.get(FIGURES_ENV):
        with open(target, "a", encoding="utf-8") as sink:
            record = {**row, "failures": figures.failures(), "mock_faults": figures.mock_faults()}
            sink.write(json.dumps(record) + "\n")
