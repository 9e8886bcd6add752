"""`mcpgen doctor`: would each host's snippet actually work on this machine?

Runs the stdio launch command the snippets contain, does the MCP handshake and lists the
tools with the real SDK client; checks the program, the interpreter, PATH for GUI hosts,
required environment variables, and for HTTP whether the port is free or answered by this
server. Every network and process step has a timeout: doctor never hangs.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import anyio

from mcpgen.hosts import secrets
from mcpgen.hosts.base import DEFAULT_URL, Host
from mcpgen.hosts.launch import (
    Launch,
    Launcher,
    MachineFacts,
    OsName,
    Which,
    build_launch,
    is_absolute,
)
from mcpgen.hosts.tool_selection import ToolSelection
from mcpgen.manifest.model import Manifest

Status = Literal["ok", "warn", "fail"]
STDERR_TAIL = 600  # characters of the server's stderr shown when it fails


@dataclass(frozen=True)
class Check:
    """One finding of doctor's, with how bad it is."""

    status: Status
    message: str


@dataclass(frozen=True)
class Probe:
    """The outcome of one handshake: the tool names, or why it failed."""

    ok: bool
    tools: tuple[str, ...] = ()
    error: str = ""


@dataclass
class HostReport:
    """Doctor's findings for one host."""

    host: str
    title: str
    checks: list[Check] = field(default_factory=list)

    @property
    def status(self) -> Status:
        """The worst status among the checks."""
        states = {c.status for c in self.checks}
        return "fail" if "fail" in states else "warn" if "warn" in states else "ok"


def _root_cause(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _describe(exc: BaseException) -> str:
    cause = _root_cause(exc)
    if isinstance(cause, TimeoutError):
        return "no answer to the MCP handshake in time"
    if isinstance(cause, FileNotFoundError):
        return "the program was not found"
    if isinstance(cause, PermissionError):
        return "the program is not executable"
    text = str(cause) or type(cause).__name__
    if "Connection closed" in text:
        return "the server exited or closed its output before answering"
    return text


async def _handshake(target: object, timeout: float) -> Probe:
    from mcp import Client

    with anyio.fail_after(timeout):
        async with Client(target, read_timeout_seconds=timeout) as client:  # type: ignore[arg-type]
            tools = (await client.list_tools()).tools
    return Probe(True, tuple(t.name for t in tools))


def probe_stdio(launch: Launch, env: Mapping[str, str], timeout: float = 20.0) -> Probe:
    """Start the launch command, handshake, list tools, stop it; with the server's stderr."""
    from mcp import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=launch.command, args=list(launch.args), env=dict(env))
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as errlog:
        try:
            return anyio.run(_handshake, stdio_client(params, errlog=errlog), timeout)
        except Exception as exc:  # the SDK raises many kinds; each becomes one message
            errlog.seek(0)
            tail = errlog.read()[-STDERR_TAIL:].strip()
            message = _describe(exc) + (f"; server stderr: {tail}" if tail else "")
            return Probe(False, error=message)


def _probe_http(url: str, timeout: float = 10.0, headers: Mapping[str, str] | None = None) -> Probe:
    """Handshake with whatever answers at `url` and list its tools (sending `headers`)."""
    try:
        if not headers:
            return anyio.run(_handshake, url, timeout)
        return anyio.run(_handshake_with_headers, url, headers, timeout)
    except Exception as exc:  # any failure means "not this MCP server"
        return Probe(False, error=_describe(exc))


async def _handshake_with_headers(url: str, headers: Mapping[str, str], timeout: float) -> Probe:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    async with httpx2.AsyncClient(headers=dict(headers), timeout=timeout) as http:
        return await _handshake(streamable_http_client(url, http_client=http), timeout)


def port_in_use(url: str, timeout: float = 1.0) -> bool:
    """Whether anything accepts a TCP connection at the URL's host and port."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


# -- checks ------------------------------------------------------------------------------------


def _program_check(
    host: Host, launch: Launch, os_name: OsName, which: Which = shutil.which
) -> Check:
    """Whether the launch command exists and runs, and whether a GUI host can find it."""
    command = launch.command
    if is_absolute(command, os_name):
        path = Path(command)
        if not path.exists():
            return Check("fail", f"missing program or interpreter: {command} does not exist")
        if not os.access(path, os.X_OK):
            return Check("fail", f"{command} is not executable")
        return Check("ok", f"{command} exists")
    found = which(command)
    if found is None:
        return Check("fail", f"`{command}` is not on PATH")
    if host.gui:
        return Check(
            "warn",
            f"`{command}` is on your shell's PATH ({found}), but {host.title} "
            "may not see that PATH: prefer an absolute path",
        )
    return Check("ok", f"`{command}` found at {found}")


def _env_checks(host: Host, manifest: Manifest, environ: Mapping[str, str]) -> list[Check]:
    """Per variable the server needs: whether this host will pass it a value, and how."""
    checks: list[Check] = []
    for var in secrets.passed_vars(manifest.env):
        if not host.env_syntax.expands:
            checks.append(
                Check(
                    "warn",
                    f"{var.name}: {host.title} takes literal values; "
                    f"replace {secrets.placeholder(var.name)} in its config",
                )
            )
        elif host.key == "vscode" and var.secret:
            checks.append(Check("ok", f"{var.name}: VS Code prompts for it once"))
        elif host.key == "goose":
            checks.append(Check("warn", f"{var.name}: set it with `goose configure`"))
        elif host.key == "continue":
            checks.append(Check("warn", f"{var.name}: put it in ~/.continue/.env"))
        elif var.name not in environ:
            checks.append(
                Check(
                    "fail",
                    f"missing required environment variable {var.name}: "
                    f"{host.title} reads it from the environment",
                )
            )
        else:
            checks.append(Check("ok", f"{var.name} is set"))
    return checks


def _handshake_check(
    probe: Probe, manifest: Manifest, selection: ToolSelection | None = None
) -> Check:
    """The stdio probe judged: failed, missing some of the manifest's tools (those the
    selection shows), or ok."""
    if not probe.ok:
        return Check("fail", f"stdio handshake failed: {probe.error}")
    selection = selection or ToolSelection()
    missing = sorted(set(selection.shown(manifest)) - set(probe.tools))
    if missing:
        return Check(
            "warn",
            f"handshake ok, but tools missing from tools/list: "
            f"{', '.join(missing)} (run `mcpgen generate` and reinstall?)",
        )
    return Check("ok", f"stdio handshake ok, {filtered_count(probe, manifest, selection)}")


def filtered_count(probe: Probe, manifest: Manifest, selection: ToolSelection) -> str:
    """`N tools`, or `N of M tools (--toolsets …)` when a selection filters them."""
    if selection.everything:
        return f"{len(probe.tools)} tools"
    return f"{len(probe.tools)} of {len(manifest.tools)} tools ({selection.describe()})"


def http_check(
    url: str, script: str, timeout: float, selection: ToolSelection | None = None
) -> Check:
    """Whether the HTTP snippets reach this server: nothing listening, it, or something else;
    the selection's X-MCP-* headers are sent as the snippets send them."""
    selection = selection or ToolSelection()
    if not port_in_use(url):
        return Check(
            "warn",
            f"nothing is listening at {url}: start the server with "
            f"`{script} --transport http` before using the HTTP snippets",
        )
    probe = _probe_http(url, timeout, selection.headers())
    if probe.ok:
        shown = f"{len(probe.tools)} tools"
        if not selection.everything:
            shown += f" for the headers {', '.join(selection.headers())}"
        return Check("ok", f"HTTP server at {url} answers, {shown}")
    return Check(
        "fail",
        f"port in use: something at {url} is not an MCP server "
        f"({probe.error}); stop it or pass another --url",
    )


def diagnose(
    manifest: Manifest,
    root: Path,
    hosts: Sequence[Host],
    *,
    launcher: Launcher,
    facts: MachineFacts,
    environ: Mapping[str, str],
    url: str = DEFAULT_URL,
    timeout: float = 20.0,
    launch: Launch | None = None,
    selection: ToolSelection | None = None,
) -> tuple[Launch, Probe, Check, list[HostReport]]:
    """Probe the launch once, then judge it per host. `launch` overrides the computed one;
    the `selection`'s flags follow its arguments, as in the snippets."""
    selection = selection or ToolSelection()
    launch = launch or build_launch(manifest, root, launcher, facts)
    launch = Launch(launch.command, (*launch.args, *selection.server_args()))
    probe = probe_stdio(launch, environ, timeout)
    stdio = _handshake_check(probe, manifest, selection)
    http = http_check(url, manifest.script, min(timeout, 10.0), selection)
    reports = []
    for host in hosts:
        report = HostReport(host.key, host.title)
        if "stdio" in host.transports:
            report.checks.append(_program_check(host, launch, facts.os_name))
            report.checks += _env_checks(host, manifest, environ)
            report.checks.append(stdio)
        reports.append(report)
    return launch, probe, http, reports
