"""`mcpgen bundle [DIR]`: build the project's MCP Bundle (`.mcpb`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

HELP = """Pack the project into an MCP Bundle (.mcpb) that desktop hosts install in one click.

The bundle holds manifest.json (generated from mcpgen.yaml: secret env variables become
`sensitive` user_config entries), pyproject.toml, README.md and src/. Hosts run it with
`uv run`, installing Python and the dependencies themselves.

The project must be what mcpgen.yaml renders (`mcpgen generate --check` passes: nothing
stale, no generated file edited by hand). Never packed: `.env` files (`.env`, `.env.*`,
`*.env`, `.envrc`, in any case), `.git` folders, __pycache__. Refused: a symlink that leads
outside the project (or loops, or to a `.env`), a file with several hard links, a FIFO or
device, a file name that is not UTF-8 or holds a control character or a backslash.

Exit codes: 0 written; 1 invalid manifest, stale or hand-edited generated files, or a file
the bundle must not hold (nothing written); 2 bad command line.
"""


def bundle(
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", help="Project folder holding mcpgen.yaml.")
    ] = Path("."),
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Where to write (default: dist/NAME-VERSION.mcpb)."),
    ] = None,
) -> None:
    """Pack the project at DIR and list what went in (help: `HELP`)."""
    from mcpgen.cli import out
    from mcpgen.cli.present import print_bundle
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.bundle import build_bundle

    print_bundle(out, build_bundle(find_project_manifest(directory), output))


def register(app: typer.Typer) -> None:
    """Add `mcpgen bundle` to the `mcpgen` app."""
    app.command("bundle", help=HELP)(bundle)
