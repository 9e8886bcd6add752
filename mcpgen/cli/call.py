"""`mcpgen call [TOOL] [--args JSON] [DIR]`: call one tool of the project's server."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcpgen.errors import McpgenError

HELP = """Call TOOL on the project's server and print its answer as one JSON document.

Starts the server from the project's own `.venv` over stdio (the working copy under `src/`,
installed or not), calls the tool with the real MCP client, prints the tool's
`structuredContent`, else its text as a JSON string, and stops the server. Without TOOL, lists
the tools. Nothing else goes to stdout, so the answer pipes into `jq`.

Exit codes: 0 the tool answered; 1 the tool answered with an error, an unknown tool, arguments
its schema refuses, or a server that does not start (the message on stderr); 2 bad command
line or `--args` that are not a JSON object.
"""


def call(
    tool: Annotated[
        str | None, typer.Argument(help="The tool to call; none lists the tools.")
    ] = None,
    directory: Annotated[
        Path, typer.Argument(help="Project directory (or its manifest file).", show_default=False)
    ] = Path("."),
    arguments: Annotated[
        str | None,
        typer.Option("--args", metavar="JSON", help="The tool's arguments as a JSON object."),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds to wait for the answer.", min=0.1)
    ] = 60.0,
) -> None:
    """Call one tool, or list them (help: `HELP`)."""
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.call import parse_arguments, talk_to_server
    from mcpgen.manifest import load_manifest

    given = parse_arguments(arguments)
    manifest_path = find_project_manifest(directory)
    manifest = load_manifest(manifest_path)
    answer = talk_to_server(manifest, manifest_path.parent, tool, given, timeout)
    if isinstance(answer, list):
        for listed in answer:
            summary = listed.description.splitlines()[0] if listed.description else ""
            typer.echo(f"{listed.name}  {summary}".rstrip() if summary else listed.name)
        return
    if not answer.ok:
        raise McpgenError(f"{tool}: {answer.error}")
    typer.echo(answer.document)


def register(app: typer.Typer) -> None:
    """Add `mcpgen call` to the `mcpgen` app."""
    app.command("call", help=HELP)(call)
