"""`mcpgen ARGS` in process: the real app and its error boundary, without a new interpreter.

`run_cli` answers like `subprocess.run(..., capture_output=True, text=True)` (`returncode`,
`stdout`, `stderr`), so a test reads the same whichever way it runs the command.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def run_cli(
    *args: str, cwd: Path | None = None, stdin: str = "", env: Mapping[str, str] | None = None
) -> Ran:
    """Run `mcpgen ARGS` in `cwd` with `stdin`; extra environment variables in `env`."""
    # Imported here: collecting a test module that runs commands stays cheap.
    from typer.testing import CliRunner

    from mcpgen.cli import command_line

    environment = {"NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    with contextlib.chdir(cwd or Path.cwd()):
        result = CliRunner().invoke(command_line(), list(args), input=stdin, env=environment)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a bug, not a user error: fail with its traceback
    return Ran(result.exit_code, result.stdout, result.stderr)
