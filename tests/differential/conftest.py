from __future__ import annotations

import pytest

from tests.differential import tally


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if tally.JUDGED:
        terminalreporter.section("schema verdicts: server vs reference")
        for line in tally.summary():
            terminalreporter.write_line(line)
