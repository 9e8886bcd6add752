"""Shared pytest options, fixtures and test tiers.

`--update-goldens` rewrites expected outputs (error snapshots, golden trees) from what the
code produces now, instead of comparing against them. Review the diff before committing.

A test's tier is the folder it lives in, directly under tests/: `unit` (in process: no
process, socket, sleep or venv), `cli` (commands and the library API, in process), `golden`
(compares output with committed files), `differential` (two judges over many inputs) and
`e2e` (processes, sockets, signals, venvs; slow). Each test is marked with its tier, so
`pytest -m "not e2e"` runs the rest, and the run ends with each tier's count and time.
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the fixtures import mcpgen when a test asks for them, not at collection
    from mcpgen.manifest.model import Manifest
    from tests.support.demo_project import Run

TESTS = Path(__file__).resolve().parent
TIERS = ("unit", "cli", "golden", "differential", "e2e")
# Per tier: each test that reported here, and the seconds its setup, call and teardown took.
# Reports arrive in this process when it runs the tests, and in the controller under xdist.
TIMES: defaultdict[str, dict[str, float]] = defaultdict(dict)


def pytest_configure(config: pytest.Config) -> None:
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # Started in the background by a shell without job control, which ignores Ctrl-C for
        # it: the processes the tests start would inherit that, and the tests that press
        # Ctrl-C on them would prove nothing. A terminal's user gets the default.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    from hypothesis import settings

    from tests.support import sweep

    if config.getoption("--full"):
        os.environ[sweep.FULL_ENV] = "1"  # the workers and the processes tests start see it
    # CI draws the same examples every run (a failure reproduces, nothing flakes); a full run
    # searches afresh.
    settings.register_profile("sampled", derandomize=True, deadline=None)
    settings.register_profile("full", derandomize=False, deadline=None)
    settings.load_profile("full" if sweep.full_run() else "sampled")
    # generate's no-change records go to a folder of this run's, not the user's cache; the
    # servers and commands the tests start inherit it.
    if "MCPGEN_CACHE_DIR" not in os.environ:
        os.environ["MCPGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="mcpgen-test-cache-")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run every case of the long sweeps (corpus differentials, random kill points, "
        "hypothesis searches) instead of CI's seeded sample; same as MCPGEN_FULL=1",
    )
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite expected outputs (snapshots, goldens) instead of comparing against them",
    )


def tier_of(relative: str) -> str:
    """The tier of a test from its path under the repository (`tests/<tier>/...`)."""
    parts = relative.replace("\\", "/").split("/")
    if len(parts) < 3 or parts[0] != "tests" or parts[1] not in TIERS:
        raise pytest.UsageError(f"{relative}: a test lives in a tier folder, one of {TIERS}")
    return parts[1]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        relative = item.path.relative_to(config.rootpath).as_posix()
        item.add_marker(getattr(pytest.mark, tier_of(relative)))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    tests = TIMES[tier_of(report.nodeid.split("::")[0])]
    tests[report.nodeid] = tests.get(report.nodeid, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TIMES:
        return
    terminalreporter.section("tiers: tests, and the seconds they took (summed over workers)")
    for tier in TIERS:
        if tests := TIMES.get(tier):
            seconds = sum(tests.values())
            terminalreporter.write_line(f"{tier:<12} {len(tests):>5} tests {seconds:>9.1f} s")


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite expected outputs rather than check them."""
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture
def anyio_backend() -> str:
    """The event loop every `@pytest.mark.anyio` test runs on (the SDK's, asyncio)."""
    return "asyncio"


@pytest.fixture
def project(tmp_path: Path) -> Run:
    """A two-tool project (`tests/support/demo_project.py`), generated in process."""
    from tests.support.demo_project import demo_project

    return demo_project(tmp_path)


@pytest.fixture
def manifest() -> Manifest:
    """The host snippets' weather manifest: every env and name rule in one server."""
    from mcpgen.manifest.model import build_manifest
    from tests.support.hosts import WEATHER

    return build_manifest(WEATHER)


# Signals a test must leave as it found them: a process it starts afterwards inherits the
# blocked mask and any ignored disposition, and then cannot be stopped by Ctrl-C or SIGTERM.
_GUARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _environment() -> dict[str, str]:
    """The environment a process started now inherits (pytest's own note on the test aside)."""
    return {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}


@pytest.fixture(autouse=True)
def _signals_left_as_found() -> Iterator[None]:
    """Fail a test that leaves signals blocked, their handlers or the environment changed (the
    processes later tests start would inherit them), after restoring them."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    handlers = {number: signal.getsignal(number) for number in _GUARDED_SIGNALS}
    environment = _environment()
    yield
    leaked = []
    if _environment() != environment:
        changed = {key for key, _ in set(_environment().items()) ^ set(environment.items())}
        for key in changed:
            if key in environment:
                os.environ[key] = environment[key]
            else:
                del os.environ[key]
        leaked.append(f"the environment ({', '.join(sorted(changed))})")
    if signal.pthread_sigmask(signal.SIG_SETMASK, mask) != mask:
        leaked.append("the blocked-signal mask")
    for number, handler in handlers.items():
        if signal.getsignal(number) is not handler:
            signal.signal(number, handler)
            leaked.append(f"the {signal.Signals(number).name} handler")
    if leaked:
        pytest.fail(f"the test changed {' and '.join(leaked)} and left it so (now restored)")
