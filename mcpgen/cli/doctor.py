"""`mcpgen doctor [DIR]`: what would work in each host, and what would fail, on this machine."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from mcpgen.errors import ExitCode, McpgenError
from mcpgen.hosts import DEFAULT_URL


def doctor(  # noqa: PLR0917  (typer passes options by keyword)
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", help="Project folder holding mcpgen.yaml.")
    ] = Path("."),
    launcher: Annotated[
        str | None, typer.Option(help="venv (default when DIR/.venv exists), uv, uvx or pipx.")
    ] = None,
    url: Annotated[str, typer.Option(help="URL of the HTTP server to check.")] = DEFAULT_URL,
    host: Annotated[
        list[str] | None, typer.Option(help="Check only this host (repeatable).")
    ] = None,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for each handshake.")] = 20.0,
    token_env: Annotated[
        str | None, typer.Option(help="Variable holding the HTTP server's bearer token.")
    ] = None,
    toolsets: Annotated[
        str | None,
        typer.Option(metavar="TAG,...", help="As `mcpgen config --toolsets`: probe with it."),
    ] = None,
    tools: Annotated[
        str | None, typer.Option(metavar="NAME,...", help="As `mcpgen config --tools`.")
    ] = None,
    read_only: Annotated[
        bool, typer.Option("--read-only", help="As `mcpgen config --read-only`.")
    ] = False,
) -> None:
    """Run the launch command the snippets contain, do the MCP handshake, report per host."""
    from mcpgen.cli import out
    from mcpgen.cli.present import print_auth_check, print_doctor
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.hosts import HOSTS, get_host
    from mcpgen.hosts.doctor import diagnose, filtered_count
    from mcpgen.hosts.launch import gather_facts
    from mcpgen.hosts.tool_selection import ToolSelection
    from mcpgen.scaffold.template import project_manifest

    if timeout <= 0:
        raise McpgenError("--timeout must be positive", exit_code=ExitCode.USAGE)
    manifest_path = find_project_manifest(directory)
    root = manifest_path.parent.resolve()
    facts = gather_facts(root)
    manifest = project_manifest(manifest_path)
    selection = ToolSelection.parse(toolsets, tools, read_only)
    selection.check(manifest)
    launch, probe, http, reports = diagnose(
        manifest,
        root,
        [get_host(name) for name in host] if host else list(HOSTS),
        launcher=facts.launcher(launcher),
        facts=facts,
        environ=dict(os.environ),
        url=url,
        timeout=timeout,
        selection=selection,
    )
    from mcpgen.hosts.http_auth import auth_check

    hosts_ok = print_doctor(out, launch, probe, http, reports)
    if probe.ok and not selection.everything:
        out.print(f"filtered: {filtered_count(probe, manifest, selection)}", markup=False)
    auth_ok = print_auth_check(out, auth_check(url, token_env, os.environ))
    if not (hosts_ok and auth_ok):
        # Not typer.Exit: the code must reach the shell through the one error boundary.
        raise McpgenError("some hosts would fail; see above")


def register(app: typer.Typer) -> None:
    """Add `mcpgen doctor` to the `mcpgen` app."""
    app.command("doctor")(doctor)
