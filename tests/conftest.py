"""Shared pytest options and fixtures.

`--update-goldens` rewrites expected outputs (error snapshots, golden trees) from what the
code produces now, instead of comparing against them. Review the diff before committing.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite expected outputs (snapshots, goldens) instead of comparing against them",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite expected outputs rather than check them."""
    return bool(request.config.getoption("--update-goldens"))
