"""`hosts/`: one file per host and transport plus a README saying what goes where.

Launch commands hold absolute paths, so these files are machine-specific and git-ignored;
`mcpgen hosts` writes them when asked (generate does not).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from mcpgen.errors import McpgenError
from mcpgen.hosts import secrets
from mcpgen.hosts.base import DEFAULT_URL, Host, Snippet, Target, Transport
from mcpgen.hosts.launch import Launch, Launcher, MachineFacts, build_launch
from mcpgen.hosts.limits import HostWarning, host_limit_diagnostics
from mcpgen.hosts.tool_selection import ToolSelection
from mcpgen.manifest.model import Manifest

HOSTS_DIR = "hosts"


@dataclass(frozen=True)
class HostFile:
    """One file of the `hosts/` folder; `path` is POSIX and relative to the project root."""

    path: str
    content: str


def make_target(
    manifest: Manifest,
    root: PurePath,
    transport: Transport,
    *,
    launcher: Launcher,
    facts: MachineFacts,
    url: str = DEFAULT_URL,
    bearer_env: str | None = None,
    selection: ToolSelection | None = None,
) -> Target:
    """The target for one transport, launched by the chosen launcher; the root must be UTF-8.
    The `selection`'s flags follow the launch's own arguments."""
    _require_utf8(root)
    selection = selection or ToolSelection()
    launch = build_launch(manifest, root, launcher, facts)
    launch = Launch(launch.command, (*launch.args, *selection.server_args()))
    return Target(
        manifest,
        transport,
        launch,
        facts.os_name,
        url=url,
        bearer_env=bearer_env,
        selection=selection,
    )


def _require_utf8(root: PurePath) -> None:
    """A host's config (JSON, TOML) holds the project's path as Unicode text: a path whose
    bytes are not UTF-8 (kept by Python as lone surrogates) cannot be written into one."""
    try:
        str(root).encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(str(root)).decode("utf-8", "backslashreplace")
        raise McpgenError(
            f"the project's path {shown} is not valid UTF-8, so no host config can name it; "
            "move the project to a folder whose name is UTF-8"
        ) from None


def render_snippets(
    manifest: Manifest,
    root: PurePath,
    hosts: Sequence[Host],
    *,
    launcher: Launcher,
    facts: MachineFacts,
    url: str = DEFAULT_URL,
    bearer_env: str | None = None,
    selection: ToolSelection | None = None,
) -> list[Snippet]:
    """Every host's snippet for every transport it supports, in registry order."""
    return [
        host.render(
            make_target(
                manifest,
                root,
                transport,
                launcher=launcher,
                facts=facts,
                url=url,
                bearer_env=bearer_env,
                selection=selection,
            )
        )
        for host in hosts
        for transport in host.transports
    ]


def render_host_files(
    manifest: Manifest,
    project_root: PurePath,
    facts: MachineFacts,
    *,
    launcher: str | None = None,
    url: str = DEFAULT_URL,
    bearer_env: str | None = None,
    selection: ToolSelection | None = None,
) -> list[HostFile]:
    """The `hosts/` folder `mcpgen hosts` writes, in a stable order. Pure."""
    from mcpgen.hosts import HOSTS

    chosen = facts.launcher(launcher)
    snippets = render_snippets(
        manifest,
        project_root,
        HOSTS,
        launcher=chosen,
        facts=facts,
        url=url,
        bearer_env=bearer_env,
        selection=selection,
    )
    files = [HostFile(f"{HOSTS_DIR}/{s.filename}", s.text) for s in snippets]
    readme = render_readme(
        manifest, snippets, HOSTS, host_limit_diagnostics(manifest), launcher=chosen, url=url
    )
    files.append(HostFile(f"{HOSTS_DIR}/README.md", readme))
    return sorted(files, key=lambda f: f.path)


def render_readme(
    manifest: Manifest,
    snippets: Sequence[Snippet],
    hosts: Sequence[Host],
    limits: Sequence[HostWarning],
    *,
    launcher: Launcher,
    url: str,
) -> str:
    """`hosts/README.md`: which file goes where, per host, with every warning."""
    lines = [
        f"# MCP host configs for `{manifest.distribution}`",
        "",
        "Written by `mcpgen hosts`; rewritten each time it runs, so do not edit. "
        "These files hold absolute paths for this machine (keep `hosts/` out of git).",
        "",
        f"- stdio launcher: `{launcher}` (change with `mcpgen config HOST --launcher "
        "venv|uv|uvx|pipx`)",
        f"- HTTP files (`*.http.*`) connect to `{url}`: start the server first with "
        f"`{manifest.script} --transport http --host 127.0.0.1 --port 8000`.",
        "- Merge a snippet into the host's real config file safely with "
        "`mcpgen config HOST --install` (keeps your other servers and comments, makes a backup).",
        "- Check what would work with `mcpgen doctor`.",
        "",
    ]
    lines += _env_section(manifest)
    by_host: dict[str, list[Snippet]] = {}
    for snippet in snippets:
        by_host.setdefault(snippet.host, []).append(snippet)
    general = [w for w in limits if w.host == "*"]
    if general:
        lines += ["## Limits for every host", ""]
        lines += [f"- {w.message}" for w in general]
        lines.append("")
    for host in hosts:
        lines += _host_section(
            host, by_host.get(host.key, []), [w for w in limits if w.host == host.key]
        )
    return "\n".join(lines).rstrip("\n") + "\n"


def _env_section(manifest: Manifest) -> list[str]:
    if not manifest.env:
        return []
    lines = ["## Environment", ""]
    passed = {v.name for v in secrets.passed_vars(manifest.env)}
    for var in manifest.env:
        kind = "secret" if var.secret else "value"
        if var.name in passed:
            how = "passed in every snippet (as a reference, or a placeholder to replace)"
        elif var.default is not None:
            how = f"optional, default `{var.default}`: add it to a snippet to override"
        else:
            how = "optional: not passed; add it to a snippet's env if you use it"
        lines.append(f"- `{var.name}` ({kind}): {var.description or 'no description'}; {how}.")
    lines += ["", "Secret values are never written into these files.", ""]
    return lines


def _host_section(host: Host, snippets: list[Snippet], limits: list[HostWarning]) -> list[str]:
    lines = [f"## {host.title} (`mcpgen config {host.key}`)", ""]
    for snippet in snippets:
        lines.append(f"- `{snippet.filename}` ({snippet.transport}): paste into {host.paste_into}.")
    lines.append(f"- Environment references: {host.env_syntax.label}.")
    if host.reload_hint:
        lines.append(f"- After editing: {host.reload_hint}")
    seen: set[str] = set()
    for snippet in snippets:
        for extra in snippet.extras:
            lines += ["", f"{extra.label} ({snippet.transport}):", "", "```", extra.text, "```"]
        for warning in snippet.warnings:
            if warning not in seen:
                seen.add(warning)
                lines.append(f"- Warning ({snippet.transport}): {warning}")
    lines += [f"- Limit: {w.message}" for w in limits]
    lines.append("")
    return lines
