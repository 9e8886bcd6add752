"""Fixtures of the end-to-end tests."""

from __future__ import annotations

import pytest

from tests.support.project_venv import ProjectVenv, shared_venv


@pytest.fixture(scope="session")
def project_venv() -> ProjectVenv:
    """One venv with a generated project's dependencies, shared by every test of the run."""
    return shared_venv()
