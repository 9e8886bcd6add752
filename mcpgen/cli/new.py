"""`mcpgen new NAME`: scaffold a project, write its manifest, generate, and commit it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from mcpgen.errors import McpgenError

HELP = """Create a new MCP server project.

Without --manifest the project starts from an example weather server (two tools, offline
data) named NAME. With --manifest FILE it starts from that manifest: server, package and
script names come from the manifest, and NAME only names the directory. A manifest with
errors gets them all reported and nothing is created.
"""


def new(
    name: Annotated[
        str | None,
        typer.Argument(help="Server name (and directory), e.g. weather.", show_default=False),
    ] = None,
    manifest: Annotated[
        Path | None,
        typer.Option(
            "--manifest",
            "-m",
            help="Start from this mcpgen.yaml instead of the example.",
            exists=False,
            dir_okay=False,
        ),
    ] = None,
    directory: Annotated[
        Path | None, typer.Option("--dir", "-d", help="Create the project here instead of ./NAME.")
    ] = None,
    no_input: Annotated[
        bool, typer.Option("--no-input", help="Never prompt; use defaults for anything not given.")
    ] = False,
    git: Annotated[
        bool, typer.Option(help="Initialise a git repository with a first commit.")
    ] = True,
) -> None:
    """Create the project, asking for a name only in a terminal (help: `HELP`)."""
    from mcpgen.cli import err, present
    from mcpgen.commands.new import create_project, starting_manifest

    if manifest is None and name is None:
        if no_input or not sys.stdin.isatty():
            raise McpgenError("give the server a name: `mcpgen new NAME` (or --manifest FILE)")
        name = typer.prompt("Server name", default="weather")
    start = starting_manifest(name, manifest)
    target = directory if directory is not None else Path(name or start.manifest.distribution)
    made = create_project(
        target, start, git=git, on_plan=lambda prepared: present.print_plan(err, prepared, "write")
    )
    present.print_outcome(err, made.report)
    present.print_new_project(err, made)


def register(app: typer.Typer) -> None:
    """Add `mcpgen new` to the `mcpgen` app."""
    app.command(help=HELP)(new)
