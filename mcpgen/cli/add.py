"""`mcpgen add tool NAME`: append a tool skeleton to mcpgen.yaml, then generate."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

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
    from mcpgen.cli import err
    from mcpgen.cli.generate_run import generate_and_report
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.add import append_tool_to_manifest
    from mcpgen.manifest import display_name

    path = find_project_manifest(directory)
    with _session(path):  # no other mcpgen between the edit and the generate
        append_tool_to_manifest(path, name, description)
        err.print(f"Added tool {name} to {display_name(path)}", markup=False)
        generate_and_report(path.parent, err, manifest_path=path)


@add_app.command("resource")
def add_resource(
    name: Annotated[str, typer.Argument(help="Resource name, e.g. settings.")],
    uri: Annotated[str, typer.Option("--uri", help="The resource's URI, e.g. config://app.")],
    description: Annotated[
        str | None, typer.Option("--description", "-d", help="What the resource holds.")
    ] = None,
    text: Annotated[
        str | None, typer.Option("--text", help="Static contents (default: a handler).")
    ] = None,
    directory: Annotated[
        Path, typer.Option("--dir", help="Project directory (or its manifest file).")
    ] = Path("."),
) -> None:
    """Append a resource to mcpgen.yaml (comments and formatting kept), then generate."""
    from mcpgen.commands.add import resource_entry

    _add(directory, "resources", resource_entry(name, uri, description, text), "resource")


@add_app.command("prompt")
def add_prompt(
    name: Annotated[str, typer.Argument(help="Prompt name, e.g. summarize.")],
    description: Annotated[
        str | None, typer.Option("--description", "-d", help="What the prompt is for.")
    ] = None,
    template: Annotated[
        str | None, typer.Option("--template", help="Static text (default: a handler).")
    ] = None,
    directory: Annotated[
        Path, typer.Option("--dir", help="Project directory (or its manifest file).")
    ] = Path("."),
) -> None:
    """Append a prompt to mcpgen.yaml (comments and formatting kept), then generate."""
    from mcpgen.commands.add import prompt_entry

    _add(directory, "prompts", prompt_entry(name, description, template), "prompt")


def _add(directory: Path, key: str, entry: dict[str, Any], what: str) -> None:
    from mcpgen.cli import err
    from mcpgen.cli.generate_run import generate_and_report
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.add import append_to_manifest
    from mcpgen.manifest import display_name

    path = find_project_manifest(directory)
    with _session(path):  # no other mcpgen between the edit and the generate
        append_to_manifest(path, key, entry, what)
        err.print(f"Added {what} {entry['name']} to {display_name(path)}", markup=False)
        generate_and_report(path.parent, err, manifest_path=path)


@contextmanager
def _session(manifest_path: Path) -> Iterator[None]:
    """The project's lock, after finishing or undoing a write a killed run left (said so)."""
    from mcpgen.cli import err
    from mcpgen.generation.engine import project_session

    with project_session(manifest_path.parent) as recovered:
        if recovered:
            err.print(recovered, style="yellow", markup=False)
        yield


def register(app: typer.Typer) -> None:
    """Add `mcpgen add` to the `mcpgen` app."""
    app.add_typer(add_app)
