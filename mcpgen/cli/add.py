"""`mcpgen add tool NAME`: append a tool skeleton to mcpgen.yaml, then generate."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Annotated

import typer

from mcpgen.cli import err
from mcpgen.errors import ManifestInvalid

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
    from mcpgen.manifest import check_text, display_name, find_manifest
    from mcpgen.sync import generate_project
    from mcpgen.sync.add_tool import append_tool

    path = find_manifest(directory)
    original = path.read_bytes().decode("utf-8-sig")
    text = append_tool(original.replace("\r\n", "\n"), name, description)
    manifest, diagnostics = check_text(text, display_name(path))
    if manifest is None:  # e.g. an invalid tool name: report it, leave the file alone
        raise ManifestInvalid(diagnostics)
    _replace_text(path, text.replace("\n", "\r\n") if "\r\n" in original else text)
    err.print(f"Added tool {name} to {display_name(path)}", markup=False)
    generate_project(path.parent, console=err, manifest_path=path)


def _replace_text(path: Path, text: str) -> None:
    # Same-directory temp file + os.replace: the manifest is never left half written.
    temp = path.with_name(f".{path.name}.mcpgen-tmp")
    temp.write_bytes(text.encode("utf-8"))
    shutil.copymode(path, temp)
    os.replace(temp, path)


def register(app: typer.Typer) -> None:
    app.add_typer(add_app)
