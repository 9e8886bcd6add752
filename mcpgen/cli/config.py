"""`mcpgen config HOST [DIR]` and `mcpgen hosts [DIR]`: host config snippets.

`config HOST` prints one host's snippet (stdout carries only the snippet, so it can be
redirected into a file; notes, warnings and install links go to stderr) or, with
`--install`/`--uninstall`, merges it into the host's real config file. `hosts DIR` writes
every host's snippet into DIR/hosts/; `config --all [DIR]` is its older spelling.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mcpgen.errors import ExitCode, McpgenError
from mcpgen.hosts import DEFAULT_URL

if TYPE_CHECKING:  # the host modules load when a command runs, not with `--help`
    from mcpgen.hosts.base import Host, Target, Transport
    from mcpgen.hosts.launch import MachineFacts, OsName
    from mcpgen.hosts.tool_selection import ToolSelection
    from mcpgen.manifest.model import Manifest

# Options shared by every form of the command.
Launcher = Annotated[
    str | None, typer.Option(help="venv (default when DIR/.venv exists), uv, uvx or pipx.")
]
Url = Annotated[str, typer.Option(help="Server URL for --transport http.")]
BearerEnv = Annotated[
    str | None,
    typer.Option(help="HTTP: send `Authorization: Bearer $VAR`, referenced the host's way."),
]
TargetOs = Annotated[
    str | None,
    typer.Option("--os", help="linux, macos or windows: write that OS's forms and paths."),
]
Toolsets = Annotated[
    str | None,
    typer.Option(
        metavar="TAG,...",
        help="Serve only the tools tagged with one of these (stdio: the server's --toolsets; "
        "HTTP: the X-MCP-Toolsets header).",
    ),
]
Tools = Annotated[
    str | None,
    typer.Option(
        metavar="NAME,...", help="Serve only these tools (with --toolsets: either); X-MCP-Tools."
    ),
]
ReadOnly = Annotated[
    bool,
    typer.Option(
        "--read-only", help="Serve only the tools annotated readOnlyHint; X-MCP-Readonly."
    ),
]
ProjectDir = Annotated[
    Path, typer.Argument(metavar="DIR", help="Project folder holding mcpgen.yaml.")
]
# Options of `config HOST` alone.
HostName = Annotated[
    str | None,
    typer.Argument(
        metavar="HOST",
        help="Host app (claude-desktop, cline, cursor, vscode, …); omit to list them.",
    ),
]
TransportOption = Annotated[str, typer.Option("--transport", help="stdio or http.")]
AllHosts = Annotated[
    bool, typer.Option("--all", help="Same as `mcpgen hosts DIR` (DIR given as HOST).")
]
Install = Annotated[
    bool, typer.Option("--install", help="Merge the entry into the host's real config file.")
]
Uninstall = Annotated[
    bool,
    typer.Option("--uninstall", help="Remove this server's entry from the host's config file."),
]
ConfigPath = Annotated[
    Path | None,
    typer.Option(
        "--config-path", help="Config file to install into, instead of the host's usual one."
    ),
]
Yes = Annotated[
    bool,
    typer.Option("--yes", "-y", help="Replace an existing entry of the same name without asking."),
]
Scope = Annotated[
    str,
    typer.Option(
        "--scope", help="user, or project (the project's own file, where the host has one)."
    ),
]


@dataclass(frozen=True)
class SnippetOptions:
    """How the snippets should launch or reach the server."""

    launcher: str | None
    url: str
    bearer_env: str | None
    os_name: str | None
    toolsets: str | None = None
    tools: str | None = None
    read_only: bool = False

    def selection(self, manifest: Manifest) -> ToolSelection:
        """The tools the snippets ask for, checked against the manifest."""
        from mcpgen.hosts.tool_selection import ToolSelection

        chosen = ToolSelection.parse(self.toolsets, self.tools, self.read_only)
        chosen.check(manifest)
        return chosen

    def facts(self, root: Path) -> MachineFacts:
        """The machine facts, gathered once, for the OS the snippets are for."""
        from mcpgen.hosts.launch import gather_facts

        return gather_facts(root, _os(self.os_name))


@dataclass(frozen=True)
class InstallOptions:
    """Where and how `--install`/`--uninstall` edits the host's config file."""

    config_path: Path | None
    yes: bool
    uninstall: bool
    scope: str


def _os(name: str | None) -> OsName | None:
    from mcpgen.hosts.launch import OS_NAMES

    if name is not None and name not in OS_NAMES:
        raise McpgenError(
            f"unknown --os {name!r}; choose one of: {', '.join(OS_NAMES)}", exit_code=ExitCode.USAGE
        )
    return name


def _transport(host: Host, name: str) -> Transport:
    from mcpgen.hosts.base import TRANSPORTS

    if name not in TRANSPORTS:
        raise McpgenError(
            f"unknown --transport {name!r}; choose stdio or http", exit_code=ExitCode.USAGE
        )
    if name not in host.transports:
        raise McpgenError(f"{host.title} does not support --transport {name}")
    return name


def _project(directory: Path) -> tuple[Path, Manifest]:
    """The project root and its manifest (with the scaffold's package names)."""
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.scaffold.template import project_manifest

    path = find_project_manifest(directory)
    return path.parent.resolve(), project_manifest(path)


def write_hosts(directory: Path, options: SnippetOptions) -> None:
    """Write every host's files into DIR/hosts/."""
    from mcpgen.cli import err
    from mcpgen.hosts.folder import write_hosts_folder

    root, manifest = _project(directory)
    written = write_hosts_folder(
        manifest,
        root,
        options.facts(root),
        launcher=options.launcher,
        url=options.url,
        bearer_env=options.bearer_env,
        selection=options.selection(manifest),
    )
    err.print(
        f"wrote {len(written)} files into {root / 'hosts'} (see hosts/README.md)", markup=False
    )


def _target(
    host: Host, root: Path, manifest: Manifest, transport: str, options: SnippetOptions
) -> Target:
    from mcpgen.hosts.render import make_target

    chosen = _transport(host, transport)
    selection = options.selection(manifest)
    facts = options.facts(root)
    return make_target(
        manifest,
        root,
        chosen,
        launcher=facts.launcher(options.launcher),
        facts=facts,
        url=options.url,
        bearer_env=options.bearer_env,
        selection=selection,
    )


def _print_snippet(host: Host, target: Target) -> None:
    from mcpgen.cli import err, out

    snippet = host.render(target)
    out.print(snippet.text, end="", markup=False, highlight=False)
    for warning in snippet.warnings:
        err.print(f"warning: {warning}", style="yellow", markup=False)
    for extra in snippet.extras:
        err.print(f"{extra.label}:", style="bold", markup=False)
        err.print(f"  {extra.text}", markup=False, soft_wrap=True)


def _install(host: Host, target: Target, root: Path, options: InstallOptions) -> None:
    from mcpgen.cli import err
    from mcpgen.hosts.base import Where
    from mcpgen.hosts.install import install

    if options.scope not in ("user", "project"):
        raise McpgenError("--scope is user or project", exit_code=ExitCode.USAGE)
    where = Where(
        os=target.os,
        env=dict(os.environ),
        home=Path.home(),
        project=root,
        scope="project" if options.scope == "project" else "user",
    )
    result = install(
        host,
        target,
        where,
        config_path=options.config_path,
        yes=options.yes,
        uninstall=options.uninstall,
        confirm=lambda question: typer.confirm(question, default=False, err=True),
    )
    err.print(result.describe(host, target.server), markup=False)
    if result.action in ("added", "replaced") and host.reload_hint:
        err.print(f"next: {host.reload_hint}", markup=False)


def _list_hosts() -> None:
    from mcpgen.cli import out
    from mcpgen.hosts import HOSTS

    for known in HOSTS:
        out.print(f"{known.key:16} {known.title}", markup=False)


def config(  # noqa: PLR0917  # Typer declares every option as a parameter
    host_name: HostName = None,
    directory: ProjectDir = Path("."),
    transport: TransportOption = "stdio",
    launcher: Launcher = None,
    url: Url = DEFAULT_URL,
    bearer_env: BearerEnv = None,
    all_hosts: AllHosts = False,
    do_install: Install = False,
    uninstall: Uninstall = False,
    config_path: ConfigPath = None,
    yes: Yes = False,
    os_name: TargetOs = None,
    scope: Scope = "user",
    toolsets: Toolsets = None,
    tools: Tools = None,
    read_only: ReadOnly = False,
) -> None:
    """Print a host's config snippet, or install it safely into the host's config file."""
    from mcpgen.hosts import get_host

    options = SnippetOptions(launcher, url, bearer_env, os_name, toolsets, tools, read_only)
    if all_hosts:
        # The older spelling `mcpgen config --all DIR`: the one positional argument is DIR.
        write_hosts(Path(host_name) if host_name is not None else directory, options)
    elif host_name is None:
        _list_hosts()
    else:
        host = get_host(host_name)
        root, manifest = _project(directory)
        target = _target(host, root, manifest, transport, options)
        if do_install or uninstall:
            _install(host, target, root, InstallOptions(config_path, yes, uninstall, scope))
        else:
            _print_snippet(host, target)


def hosts(  # noqa: PLR0917  # Typer declares every option as a parameter
    directory: ProjectDir = Path("."),
    launcher: Launcher = None,
    url: Url = DEFAULT_URL,
    bearer_env: BearerEnv = None,
    os_name: TargetOs = None,
    toolsets: Toolsets = None,
    tools: Tools = None,
    read_only: ReadOnly = False,
) -> None:
    """Write every host's config snippet into DIR/hosts/, with a README saying what goes where.

    The files hold absolute paths for this machine: keep `hosts/` out of git. Run it again
    after moving the project or changing the manifest's name or env.
    """
    options = SnippetOptions(launcher, url, bearer_env, os_name, toolsets, tools, read_only)
    write_hosts(directory, options)


def register(app: typer.Typer) -> None:
    """Add `mcpgen config` and `mcpgen hosts` to the `mcpgen` app."""
    app.command("config")(config)
    app.command("hosts")(hosts)
