"""`mcpgen update [DIR]`: merge scaffold improvements of the installed mcpgen into a project."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcpgen.errors import McpgenError

HELP = """Bring template improvements from this mcpgen into the project's scaffold files.

Runs copier's three-way update on the scaffold (pyproject.toml, README.md, .gitignore, ...):
your edits to those files are kept and merged with the template's changes. Generated files
are `mcpgen generate`'s business and handlers are never touched; a file the new template adds
that the project already has (yours, or one `mcpgen generate` created) is kept as it is and
reported. Needs a git repository with no uncommitted changes, so the result can be reviewed
(`git diff`) and undone. Refuses a project a newer mcpgen last wrote (see --allow-downgrade).

Exit codes: 0 updated or already current; 1 refused (not a git repository, uncommitted
changes, not an mcpgen project, written by a newer mcpgen) or merge conflicts left in files
(listed; resolve the <<<<<<< markers, then commit); 2 bad command line.
"""


def update(
    directory: Annotated[
        Path, typer.Argument(help="Project directory.", show_default=False)
    ] = Path("."),
    allow_downgrade: Annotated[
        bool,
        typer.Option(
            "--allow-downgrade",
            help="Merge this mcpgen's template even if a newer mcpgen last wrote the project.",
        ),
    ] = False,
) -> None:
    """Merge the template into the project at DIR and list each file's fate (help: `HELP`)."""
    from mcpgen.cli import err
    from mcpgen.cli.present import print_update
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.update import update_scaffold

    root = find_project_manifest(directory).parent
    result = update_scaffold(root, allow_downgrade=allow_downgrade)
    for path in result.kept_own:
        err.print(
            f"  kept      {path}: yours; the new template's {path} was not applied", markup=False
        )
    print_update(err, result)
    if result.conflicts:
        raise McpgenError(
            f"{len(result.conflicts)} file(s) have merge conflicts, left for you to resolve: "
            f"{', '.join(result.conflicts)}; edit the <<<<<<< / >>>>>>> blocks, then commit"
        )


def register(app: typer.Typer) -> None:
    """Add `mcpgen update` to the `mcpgen` app."""
    app.command("update", help=HELP)(update)
