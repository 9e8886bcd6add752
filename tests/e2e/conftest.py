"""Fixtures of the end-to-end tests."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from tests.support.once import once
from tests.support.project_venv import ProjectVenv, run_mcpgen, shared_venv


@pytest.fixture(scope="session")
def project_venv(tmp_path_factory: pytest.TempPathFactory) -> ProjectVenv:
    """One venv with a generated project's dependencies, shared by every test of the run;
    mypy's cache of its packages is this worker's, so each project after the first is
    type-checked without reading mcp and pydantic again."""
    mypy_cache = tmp_path_factory.getbasetemp() / "mypy-cache"
    return dataclasses.replace(shared_venv(), mypy_cache=mypy_cache)


def _run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this run that every xdist worker sees (each worker's own temporary folder
    lies inside it; without xdist, the run's own)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if "PYTEST_XDIST_WORKER" in os.environ else base


@pytest.fixture(scope="session")
def installed_weather(tmp_path_factory: pytest.TempPathFactory, project_venv: ProjectVenv) -> Path:
    """`mcpgen new weather` (in git), installed into the project venv: made once per run, by
    whichever worker asks first, so that no two workers reinstall it under each other's
    running servers. Tests read it and run it; none edits it."""
    root = _run_folder(tmp_path_factory) / "weather-installed" / "weather"

    def make() -> None:
        root.parent.mkdir(parents=True, exist_ok=True)
        run_mcpgen("new", "weather", "--dir", str(root), "--no-input")
        project_venv.install(root)

    once(root.parent / ".ready", make)
    return root
