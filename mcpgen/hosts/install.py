"""`mcpgen config HOST --install/--uninstall`: merge one entry into the host's real config.

Safety rules (issue 5): keep every other server, unknown key and comment; refuse a file
that does not parse; ask before replacing a different entry of the same name; back up
before writing; write atomically; a second install changes nothing. After editing, the
result is parsed again and compared with the original minus this entry: if anything else
moved, nothing is written.
"""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mcpgen.errors import McpgenError
from mcpgen.hosts.base import Host, Target, Where
from mcpgen.hosts.claude_code import ClaudeCode
from mcpgen.hosts.editors import editor_for
from mcpgen.write.atomic import write_atomic

Action = Literal["added", "replaced", "unchanged", "removed", "absent"]
Confirm = Callable[[str], bool]
Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]
CLI_TIMEOUT = 60.0


@dataclass(frozen=True)
class InstallResult:
    """What an install or uninstall did, and to which file (or through which host CLI)."""

    action: Action
    path: Path | None  # None when the host's own CLI did the work
    backup: Path | None = None
    via: str = "file"  # "file" or the CLI used

    def describe(self, host: Host, server: str) -> str:
        """The line the CLI prints: what happened to `server` where, and any backup made."""
        where = str(self.path) if self.path else f"{self.via} (user scope)"
        text = {
            "added": f"added `{server}` to {where}",
            "replaced": f"replaced `{server}` in {where}",
            "unchanged": f"`{server}` is already up to date in {where}; nothing written",
            "removed": f"removed `{server}` from {where}",
            "absent": f"`{server}` is not in {where}; nothing written",
        }[self.action]
        if self.backup:
            text += f" (backup: {self.backup})"
        return text


def _run_cli(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run a host's own CLI, with a timeout so a stuck one cannot hang the install."""
    return subprocess.run(argv, capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)


# -- files ---------------------------------------------------------------------------------


def backup_path(path: Path) -> Path:
    """`<name>.<YYYYmmdd-HHMMSS>.bak` beside the file; never overwrites an older backup."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.{stamp}.bak")
    counter = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.{stamp}-{counter}.bak")
        counter += 1
    return candidate


def _check_writable(path: Path) -> None:
    # The read-only flag is honoured even for root, who could write anyway: the user set it.
    if path.exists() and not path.stat().st_mode & stat.S_IWUSR:
        raise McpgenError(
            f"{path} is read-only; nothing was written. Make it writable "
            "(chmod u+w) or pass --config-path."
        )


def _read_text(path: Path) -> str | None:
    """The config file's text, or None when it does not exist yet."""
    if not path.exists():
        return None
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise McpgenError(f"{path} is not UTF-8 text; it was left unchanged.") from None
    except OSError as exc:
        raise McpgenError(f"could not read {path}: {exc.strerror or exc}") from None


def _commit(path: Path, old: str | None, new: str) -> Path | None:
    backup = None
    if old is not None:
        backup = backup_path(path)
        write_atomic(backup, path.read_bytes())  # byte for byte, whatever its line endings
    write_atomic(path, new)
    return backup


def install_file(
    host: Host, target: Target, path: Path, *, yes: bool, confirm: Confirm
) -> InstallResult:
    """Add or replace this server's entry in `path`."""
    old = _read_text(path)
    editor = editor_for(host, target, str(path))
    base = old if old is not None and old.strip() else editor.fresh()
    data = editor.load(base) if base.strip() else {}
    entry = host.entry(target)
    current = editor.get(data)
    if current == entry and editor.side_ok(data):
        return InstallResult("unchanged", path)
    _check_writable(path)
    if (
        current is not None
        and not yes
        and not confirm(f"{path} already has a `{target.server}` entry that differs. Replace it?")
    ):
        raise McpgenError(
            f"`{target.server}` in {path} was left as it was (use --yes to replace it)."
        )
    new = editor.put(base, entry)
    after = editor.load(new)
    if editor.get(after) != entry or editor.without(after) != editor.without(data):
        raise McpgenError(
            f"internal error: editing {path} would have changed more than the "
            f"`{target.server}` entry; nothing was written. Please report this."
        )
    backup = _commit(path, old, new)
    return InstallResult("replaced" if current is not None else "added", path, backup)


def uninstall_file(host: Host, target: Target, path: Path) -> InstallResult:
    """Remove exactly this server's entry (and the VS Code inputs only it used)."""
    old = _read_text(path)
    if old is None or not old.strip():
        return InstallResult("absent", path)
    editor = editor_for(host, target, str(path))
    data = editor.load(old)
    if editor.get(data) is None:
        return InstallResult("absent", path)
    _check_writable(path)
    new = editor.delete(old)
    after = editor.load(new)
    if editor.get(after) is not None or editor.without(after) != editor.without(data):
        raise McpgenError(
            f"internal error: removing `{target.server}` from {path} would have "
            "changed more than that entry; nothing was written. Please report this."
        )
    return InstallResult("removed", path, _commit(path, old, new))


# -- Claude Code through its own CLI ---------------------------------------------------------


def _claude_user_entry(where: Where, server: str) -> Any:
    """The user-scope entry in `~/.claude.json`, read only (Claude rewrites that file itself)."""
    try:
        data = json.loads((where.home / ".claude.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return servers.get(server) if isinstance(servers, dict) else None


def _run_claude(runner: Runner, argv: list[str]) -> None:
    try:
        result = runner(argv)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise McpgenError(f"`{' '.join(argv[:3])}` failed: {exc}") from None
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip()
        raise McpgenError(f"`{' '.join(argv[:3])}` failed (exit {result.returncode}): {detail}")


def install_claude_cli(
    host: ClaudeCode,
    target: Target,
    where: Where,
    *,
    yes: bool,
    confirm: Confirm,
    runner: Runner,
    uninstall: bool,
) -> InstallResult:
    """User scope through `claude mcp add-json`: `~/.claude.json` must not be edited directly."""
    current = _claude_user_entry(where, target.server)
    remove = ["claude", "mcp", "remove", target.server, "--scope", "user"]
    if uninstall:
        if current is None:
            return InstallResult("absent", None, via="claude")
        _run_claude(runner, remove)
        return InstallResult("removed", None, via="claude")
    entry = host.entry(target)
    if current == entry:
        return InstallResult("unchanged", None, via="claude")
    if current is not None:
        if not yes and not confirm(
            f"Claude Code already has a `{target.server}` server. Replace it?"
        ):
            raise McpgenError(
                f"`{target.server}` in Claude Code was left as it was (use --yes to replace it)."
            )
        _run_claude(runner, remove)
    _run_claude(runner, host.add_json_argv(target))
    return InstallResult("replaced" if current is not None else "added", None, via="claude")


# -- entry point -------------------------------------------------------------------------------


def install(
    host: Host,
    target: Target,
    where: Where,
    *,
    config_path: Path | None = None,
    yes: bool = False,
    uninstall: bool = False,
    confirm: Confirm = lambda _question: False,
    which: Callable[[str], str | None] = shutil.which,
    runner: Runner = _run_cli,
) -> InstallResult:
    """Install (or uninstall) the target's entry for `host`, by file or by the host's CLI."""
    use_cli = (
        isinstance(host, ClaudeCode)
        and config_path is None
        and where.scope == "user"
        and which("claude") is not None
    )
    if use_cli:
        assert isinstance(host, ClaudeCode)
        return install_claude_cli(
            host, target, where, yes=yes, confirm=confirm, runner=runner, uninstall=uninstall
        )
    path = config_path or host.config_path(where)
    if path is None:
        raise McpgenError(
            f"{host.title} has no config file mcpgen can edit; paste the snippet "
            "from `mcpgen config` instead."
        )
    if path.is_dir():
        raise McpgenError(f"{path} is a directory; pass the config file itself to --config-path.")
    if uninstall:
        return uninstall_file(host, target, path)
    return install_file(host, target, path, yes=yes, confirm=confirm)
