"""`mcpgen config HOST [DIR]`: print, write, install or uninstall one host's config snippet.

stdout carries only the snippet (so it can be redirected into a file); notes, warnings,
command lines and install links go to stderr.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Annotated

import typer

from mcpgen.cli import err, out
from mcpgen.errors import ExitCode, McpgenError
from mcpgen.hosts.base import DEFAULT_URL, TRANSPORTS, Host, Snippet, Target, Transport, Where
from mcpgen.hosts.launch import OS_NAMES, OsName, choose_launcher, current_os
from mcpgen.manifest.model import Manifest


def _load(directory: Path) -> Manifest:
    from mcpgen.manifest import find_manifest
    from mcpgen.scaffold import project_manifest

    return project_manifest(find_manifest(directory))


def _os(name: str | None) -> OsName:
    if name is None:
        return current_os()
    if name not in OS_NAMES:
        raise McpgenError(
            f"unknown --os {name!r}; choose one of: {', '.join(OS_NAMES)}", exit_code=ExitCode.USAGE
        )
    return name


def _transport(name: str) -> Transport:
    if name not in TRANSPORTS:
        raise McpgenError(
            f"unknown --transport {name!r}; choose stdio or http", exit_code=ExitCode.USAGE
        )
    return name


def _print_notes(snippet: Snippet) -> None:
    for warning in snippet.warnings:
        err.print(f"warning: {warning}", style="yellow", markup=False)
    for extra in snippet.extras:
        err.print(f"{extra.label}:", style="bold", markup=False)
        err.print(f"  {extra.text}", markup=False, soft_wrap=True)


def _write_all(
    manifest: Manifest,
    root: Path,
    *,
    launcher: str | None,
    os_name: OsName,
    url: str,
    bearer_env: str | None,
) -> None:
    from mcpgen.hosts import render_host_files
    from mcpgen.hosts.install import atomic_write

    files = render_host_files(
        manifest, root, launcher=launcher, os_name=os_name, url=url, bearer_env=bearer_env
    )
    for planned in files:
        atomic_write(root / planned.path, planned.content)
    err.print(f"wrote {len(files)} files into {root / 'hosts'} (see hosts/README.md)", markup=False)


def _confirm(question: str) -> bool:
    return typer.confirm(question, default=False, err=True)


def _install(
    host: Host,
    target: Target,
    root: Path,
    *,
    os_name: OsName,
    config_path: Path | None,
    yes: bool,
    uninstall: bool,
    scope: str,
) -> None:
    from mcpgen.hosts.install import install

    if scope not in ("user", "project"):
        raise McpgenError("--scope is user or project", exit_code=ExitCode.USAGE)
    where = Where(
        os=os_name,
        env=dict(os.environ),
        home=Path.home(),
        project=root.resolve(),
        scope="project" if scope == "project" else "user",
    )
    result = install(
        host, target, where, config_path=config_path, yes=yes, uninstall=uninstall, confirm=_confirm
    )
    err.print(result.describe(host, target.server), markup=False)
    if result.action in ("added", "replaced") and host.reload_hint:
        err.print(f"next: {host.reload_hint}", markup=False)


def config(  # noqa: PLR0917  # Typer declares every option as a parameter
    host_name: Annotated[
        str | None,
        typer.Argument(
            metavar="HOST",
            help="Host app (claude-desktop, cline, cursor, vscode, …); omit to list them.",
        ),
    ] = None,
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", help="Project folder holding mcpgen.yaml.")
    ] = Path("."),
    transport: Annotated[str, typer.Option(help="stdio or http.")] = "stdio",
    launcher: Annotated[
        str | None, typer.Option(help="venv (default when DIR/.venv exists), uv, uvx or pipx.")
    ] = None,
    url: Annotated[str, typer.Option(help="Server URL for --transport http.")] = DEFAULT_URL,
    bearer_env: Annotated[
        str | None,
        typer.Option(help="HTTP: send `Authorization: Bearer $VAR`, referenced the host's way."),
    ] = None,
    all_hosts: Annotated[
        bool, typer.Option("--all", help="Write every host's files into DIR/hosts/.")
    ] = False,
    do_install: Annotated[
        bool, typer.Option("--install", help="Merge the entry into the host's real config file.")
    ] = False,
    uninstall: Annotated[
        bool, typer.Option(help="Remove this server's entry from the host's config file.")
    ] = False,
    config_path: Annotated[
        Path | None,
        typer.Option(help="Config file to install into, instead of the host's usual one."),
    ] = None,
    yes: Annotated[
        bool,
        typer.Option(
            "--yes", "-y", help="Replace an existing entry of the same name without asking."
        ),
    ] = False,
    os_name: Annotated[
        str | None,
        typer.Option("--os", help="linux, macos or windows: write that OS's forms and paths."),
    ] = None,
    scope: Annotated[
        str, typer.Option(help="user, or project (the project's own file, where the host has one).")
    ] = "user",
) -> None:
    """Print a host's config snippet, write all of them, or install one safely."""
    from mcpgen.hosts import HOSTS, get_host
    from mcpgen.hosts.render import make_target

    target_os = _os(os_name)
    if all_hosts:
        # `mcpgen config --all DIR`: the one positional argument is the folder.
        root = Path(host_name) if host_name is not None else directory
        _write_all(
            _load(root), root, launcher=launcher, os_name=target_os, url=url, bearer_env=bearer_env
        )
        return
    if host_name is None:
        for known in HOSTS:
            out.print(f"{known.key:16} {known.title}", markup=False)
        return
    host = get_host(host_name)
    chosen_transport = _transport(transport)
    if chosen_transport not in host.transports:
        raise McpgenError(f"{host.title} does not support --transport {transport}")
    manifest = _load(directory)
    target = make_target(
        manifest,
        directory.resolve(),
        chosen_transport,
        launcher=choose_launcher(directory, launcher),
        os_name=target_os,
        url=url,
        bearer_env=bearer_env,
        which=shutil.which,
    )
    if do_install or uninstall:
        _install(
            host,
            target,
            directory,
            os_name=target_os,
            config_path=config_path,
            yes=yes,
            uninstall=uninstall,
            scope=scope,
        )
        return
    snippet = host.render(target)
    out.print(snippet.text, end="", markup=False, highlight=False)
    _print_notes(snippet)


def register(app: typer.Typer) -> None:
    app.command("config")(config)
