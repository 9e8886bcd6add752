"""Shared pytest options, fixtures and test tiers.

`--update-goldens` rewrites expected outputs (error snapshots, golden trees) from what the
code produces now, instead of comparing against them. Review the diff before committing.

Every test gets one tier marker, from where it lives: `e2e` (builds venvs, runs servers;
slow), `property` (differential and state-machine tests over many generated examples),
`golden` (compares output with committed files), `cli` (commands, in process) and `unit`
(everything else). `pytest -m "not e2e and not property"` runs the fast tiers.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.support.demo_project import project  # noqa: F401  (fixture)
from tests.support.hosts import manifest  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[1]
TIERS: dict[str, tuple[str, ...]] = {
    # Real processes: generated projects in venvs, servers on loopback, signals, rival runs.
    "e2e": (
        "tests/e2e/",
        "tests/sync/test_races.py",
        "tests/sync/test_catalog_signals.py",
        "tests/hosts/test_doctor.py",
        "tests/unit/runtime/test_http.py",
        "tests/unit/runtime/test_limits.py",
        "tests/unit/runtime/test_oauth.py",
        "tests/unit/runtime/test_doctor_auth.py",
        "tests/unit/runtime/test_adversary_stdio.py",
        "tests/unit/runtime/test_adversary_catalog.py",
        "tests/unit/test_ship_bundle.py",
    ),
    # Differential and state-machine tests: many generated examples each, so minutes, not seconds.
    "property": ("tests/unit/runtime/test_verdicts.py", "tests/sync/test_property.py"),
    "golden": ("tests/test_examples.py", "tests/test_errors.py", "tests/hosts/test_render.py"),
    "cli": ("tests/cli/", "tests/hosts/test_cli.py"),
}


def pytest_configure(config: pytest.Config) -> None:
    # generate's no-change records go to a folder of this run's, not the user's cache; the
    # servers and commands the tests start inherit it.
    if "MCPGEN_CACHE_DIR" not in os.environ:
        os.environ["MCPGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="mcpgen-test-cache-")


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        # Marked by its module or itself: slow whatever its folder.
        if item.get_closest_marker("e2e") or item.get_closest_marker("property"):
            continue
        path = item.path.relative_to(ROOT).as_posix()
        tier = next((name for name, where in TIERS.items() if path.startswith(where)), "unit")
        item.add_marker(getattr(pytest.mark, tier))
