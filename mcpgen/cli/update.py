"""`mcpgen update [DIR]`: merge scaffold improvements of the installed mcpgen into a project."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcpgen.errors import McpgenError

HELP = """Bring template improvements from this mcpgen into the project's scaffold files.

Runs copier's three-way update on the scaffold (pyproject.toml, README.md, .gitignore, ...):
your edits to those files are kept and merged with the template's changes. Generated files
are `mcpgen generate`'s business and handlers are never touched. Needs a git repository with
no uncommitted changes, so the result can be reviewed (`git diff`) and undone.

Exit codes: 0 updated or already current; 1 refused (not a git repository, uncommitted
changes, not an mcpgen project) or merge conflicts left in files (listed; resolve the
<<<<<<< markers, then commit); 2 bad command line.
"""


def update(
    directory: Annotated[
        Path, typer.Argument(help="Project directory.", show_default=False)
    ] = Path("."),
) -> None:
    from mcpgen.cli import err
    from mcpgen.cli.present import print_update
    from mcpgen.sync.scaffold_update import update_scaffold

    result = update_scaffold(directory)
    print_update(err, result)
    if result.conflicts:
        raise McpgenError(
            f"{len(result.conflicts)} file(s) have merge conflicts, left for you to resolve: "
            f"{', '.join(result.conflicts)}; edit the <<<<<<< / >>>>>>> blocks, then commit"
        )


def register(app: typer.Typer) -> None:
    app.command("update", help=HELP)(update)
