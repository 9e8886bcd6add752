"""`mcpgen call`'s refusals before any server starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli_runner import run_cli


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (
            "{bad",
            "--args is not valid JSON: Expecting property name enclosed in double quotes "
            "(line 1 column 2)",
        ),
        ('["a"]', "--args must be a JSON object"),
        ("", "--args is not valid JSON: Expecting value (line 1 column 1)"),
    ],
)
def test_bad_args_are_one_clear_line(ping_project: Path, given: str, message: str) -> None:
    done = run_cli("call", "ping", "--args", given, cwd=ping_project)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"error: {message}")
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_project_without_its_venv(ping_project: Path) -> None:
    done = run_cli("call", "ping", cwd=ping_project)
    assert done.returncode == 1
    assert "no .venv in" in done.stderr


def test_an_invalid_manifest_is_reported_before_anything_starts(ping_project: Path) -> None:
    (ping_project / "mcpgen.yaml").write_text("name: demo\nversion: 0.1.0\ntools: 3\n")
    done = run_cli("call", "ping", cwd=ping_project)
    assert done.returncode == 1
    assert "mcpgen.yaml:3:8" in done.stderr
