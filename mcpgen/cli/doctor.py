"""`mcpgen doctor [DIR]`: what would work in each host, and what would fail, on this machine."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from mcpgen.cli import out
from mcpgen.errors import ExitCode, McpgenError
from mcpgen.hosts.base import DEFAULT_URL

MARKS = {"ok": ("ok  ", "green"), "warn": ("warn", "yellow"), "fail": ("FAIL", "red")}


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
) -> None:
    """Run the launch command the snippets contain, do the MCP handshake, report per host."""
    from mcpgen.hosts import HOSTS, get_host
    from mcpgen.hosts.doctor import diagnose
    from mcpgen.hosts.launch import choose_launcher, current_os
    from mcpgen.manifest import find_manifest
    from mcpgen.scaffold import project_manifest

    if timeout <= 0:
        raise McpgenError("--timeout must be positive", exit_code=ExitCode.USAGE)
    manifest_path = find_manifest(directory)
    root = manifest_path.parent.resolve()
    manifest = project_manifest(manifest_path)
    hosts = [get_host(name) for name in host] if host else list(HOSTS)
    launch, probe, http, reports = diagnose(
        manifest,
        root,
        hosts,
        launcher=choose_launcher(root, launcher),
        os_name=current_os(),
        environ=dict(os.environ),
        url=url,
        timeout=timeout,
    )
    out.print(f"launch: {' '.join(launch.argv)}", markup=False)
    if probe.ok:
        out.print(f"tools: {', '.join(probe.tools) or '(none)'}", markup=False)
    failed = False
    for report in reports:
        mark, style = MARKS[report.status]
        out.print(f"[{style}]{mark}[/{style}] {report.title}", highlight=False)
        for check in report.checks:
            if check.status != "ok":
                out.print(f"       {check.status}: {check.message}", markup=False)
        failed |= report.status == "fail"
    mark, style = MARKS[http.status]
    out.print(f"[{style}]{mark}[/{style}] HTTP: ", end="", highlight=False)
    out.print(http.message, markup=False)
    failed |= http.status == "fail"
    failed |= _report_auth(url, token_env)
    if failed:
        # Not typer.Exit: in non-standalone mode click swallows it and the code would be lost.
        raise McpgenError("some hosts would fail; see above")


def _report_auth(url: str, token_env: str | None) -> bool:
    from mcpgen.hosts.http_auth import auth_check

    check = auth_check(url, token_env, os.environ)
    mark, style = MARKS[check.status]
    out.print(f"[{style}]{mark}[/{style}] HTTP auth: ", end="", highlight=False)
    out.print(check.message, markup=False)
    return check.status == "fail"


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
