"""`mcpgen add tool NAME`: append a tool skeleton to mcpgen.yaml, then generate."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcpgen.cli import err
from mcpgen.write.lock import project_lock

add_app = typer.Typer(
    name="add", help="Add something to the manifest, then generate.", no_args_is_help=True
)


@add_app.command("tool")
def add_tool(
    name: Annotated[str, typer.Argument(help="Tool name as clients see it, e.g. get_weather.")],
    description: Annotated[
        str | None, typer.Option("--description", "-d", help="What the tool does.")
    ] = None,
    directory: Annotated[
        Path, typer.Option("--dir", help="Project directory (or its manifest file).")
    ] = Path("."),
) -> None:
    """Append a tool skeleton to mcpgen.yaml (comments and formatting kept), then generate.

    Exit codes: 0 added and generated; 1 the tool exists or the manifest is invalid (the
    manifest is then left unchanged); 3 generate refused a hand-edited generated file (the
    tool is in the manifest; fix the file or run `mcpgen generate --force`).
    """
    from mcpgen.cli.generate import generate_and_report
    from mcpgen.manifest import display_name, find_manifest
    from mcpgen.project.add import append_tool_to_manifest

    path = find_manifest(directory)
    with project_lock(path.parent):  # no other mcpgen between the edit and the generate
        append_tool_to_manifest(path, name, description)
        err.print(f"Added tool {name} to {display_name(path)}", markup=False)
        generate_and_report(path.parent, err, manifest_path=path)


def register(app: typer.Typer) -> None:
    app.add_typer(add_app)
