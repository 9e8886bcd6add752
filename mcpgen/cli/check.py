"""`mcpgen check [DIR]`: the manifest is valid, generated code is current, handlers fit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcpgen.errors import McpgenError

HELP = """Check a project without writing anything.

Checks that the manifest is valid (as `mcpgen validate`), that the generated files match it
(as `mcpgen generate --check`), and that every tool has a handler module with a function
`<python_name>(args: <ClassName>Input)` (sync or async), as the dispatcher calls it. Handlers
are read, never imported: one re-exported from another module of the project is followed
there, and what reading cannot settle (an assignment, an import from outside the project) is
a note, not a failure. Orphaned handlers (no tool in the manifest uses them) and the generated
package left behind by a `package:` change are listed as warnings.

Exit codes: 0 everything is fine (warnings may be printed); 1 invalid manifest, stale or
hand-edited generated files, or a missing or mismatched handler; 2 bad command line.
"""


def check(
    directory: Annotated[
        Path, typer.Argument(help="Project directory (or its manifest file).", show_default=False)
    ] = Path("."),
) -> None:
    """Print every check of the project at DIR; any failure fails the command (help: `HELP`)."""
    from mcpgen.cli import err
    from mcpgen.cli.present import print_check
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.check import check_project

    report = check_project(find_project_manifest(directory))
    print_check(err, report)
    if report.failures:
        raise McpgenError(f"check failed: {' and '.join(report.failures)}")


def register(app: typer.Typer) -> None:
    """Add `mcpgen check` to the `mcpgen` app."""
    app.command("check", help=HELP)(check)
