"""`mcpgen import openapi SPEC`: a server whose tools call the operations of an HTTP API."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mcpgen.errors import McpgenError

if TYPE_CHECKING:
    from mcpgen.commands.import_openapi import ImportOptions, ReadSpec

import_app = typer.Typer(
    name="import",
    help="Import tools from another description of them, then generate.",
    no_args_is_help=True,
)

HELP = """Turn the operations of an OpenAPI 3.0/3.1 document (JSON or YAML) into tools.

Outside a project, a new project is created (as `mcpgen new` does) in --dir or ./NAME, with
the spec copied to openapi/ and recorded in mcpgen.yaml. Inside a project (a folder with
mcpgen.yaml: the working directory or --dir), the spec is copied there and added to its
manifest, then the project is generated. Every later `mcpgen generate` re-reads the spec.

Without --include and --tags every operation becomes a tool.
"""


def _split(values: list[str] | None) -> tuple[str, ...]:
    """`--include a,b --include c` → ("a", "b", "c")."""
    return tuple(v.strip() for value in values or [] for v in value.split(",") if v.strip())


@import_app.command("openapi", help=HELP)
def import_openapi(  # noqa: PLR0917  (typer passes options by keyword)
    spec: Annotated[Path, typer.Argument(help="The OpenAPI document, a JSON or YAML file.")],
    directory: Annotated[
        Path | None,
        typer.Option("--dir", "-d", help="The project to add to, or the folder of a new one."),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option("--name", help="The API's name (default: from the spec's title)."),
    ] = None,
    include: Annotated[
        list[str] | None,
        typer.Option("--include", help="operationIds to import, comma-separated."),
    ] = None,
    tags: Annotated[
        list[str] | None,
        typer.Option("--tags", help="Import the operations with these tags, comma-separated."),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", help="Where the API is (default: the spec's first server)."),
    ] = None,
    no_input: Annotated[
        bool, typer.Option("--no-input", help="Never prompt; use defaults for anything not given.")
    ] = False,
    git: Annotated[
        bool, typer.Option(help="Initialise a new project's git repository with a first commit.")
    ] = True,
) -> None:
    """Import the spec into a new project or the current one (help: `HELP`)."""
    from mcpgen.commands.import_openapi import ImportOptions, read_user_spec
    from mcpgen.manifest import MANIFEST_FILENAME

    del no_input  # nothing is asked: every choice has a default or an option
    options = ImportOptions(name, _split(include), _split(tags), base_url)
    read = read_user_spec(spec, options)
    folder = directory if directory is not None else Path(".")
    if os.path.lexists(folder / MANIFEST_FILENAME):
        _into_project(folder, read, options)
    else:
        target = directory if directory is not None else Path(read.key)
        _new_project(target, read, options, git=git)


def _into_project(folder: Path, read: ReadSpec, options: ImportOptions) -> None:
    from mcpgen.cli import err
    from mcpgen.cli.add import _session
    from mcpgen.cli.generate_run import generate_and_report
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.import_openapi import add_to_project
    from mcpgen.manifest import display_name

    path = find_project_manifest(folder)
    with _session(path):  # no other mcpgen between the edit and the generate
        added = add_to_project(path, read, options)
        copied = f", copied to {added.spec}" if added.copied else ""
        err.print(
            f"Added OpenAPI source {added.key} ({added.spec}{copied}) to {display_name(path)}",
            markup=False,
        )
        generate_and_report(path.parent, err, manifest_path=path)


def _new_project(target: Path, read: ReadSpec, options: ImportOptions, *, git: bool) -> None:
    from mcpgen.cli import err, present
    from mcpgen.commands.import_openapi import new_project_start
    from mcpgen.commands.new import create_project

    if os.path.lexists(target) and not target.is_dir():
        raise McpgenError(f"'{target}' exists and is not a folder; pass --dir to choose another")
    start = new_project_start(read, options)
    made = create_project(
        target, start, git=git, on_plan=lambda prepared: present.print_plan(err, prepared, "write")
    )
    present.print_outcome(err, made.report)
    present.print_new_project(err, made)


def register(app: typer.Typer) -> None:
    """Add `mcpgen import` to the `mcpgen` app."""
    app.add_typer(import_app)
