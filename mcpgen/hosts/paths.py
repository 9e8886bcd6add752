"""Where hosts keep their config files on each OS (host-configs.md §2).

Paths are built from the `Where` environment (APPDATA, LOCALAPPDATA, XDG_CONFIG_HOME, …)
with the real filesystem's `Path`, so a simulated Windows layout can be tested on Linux.
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.errors import McpgenError
from mcpgen.hosts.base import Where


def _env_dir(where: Where, name: str) -> Path:
    value = where.env.get(name)
    if not value:
        raise McpgenError(
            f"%{name}% is not set, so the host's config file cannot be found; pass --config-path"
        )
    return Path(value)


def user_home(where: Where) -> Path:
    """The user's home: `%USERPROFILE%` on Windows when it is set, else `Where.home`."""
    if where.os == "windows" and where.env.get("USERPROFILE"):
        return Path(where.env["USERPROFILE"])
    return where.home


def appdata(where: Where) -> Path:
    """`%APPDATA%`; a Windows host's file cannot be found without it."""
    return _env_dir(where, "APPDATA")


def xdg_config(where: Where) -> Path:
    """`$XDG_CONFIG_HOME`, or `~/.config` when it is unset."""
    value = where.env.get("XDG_CONFIG_HOME")
    return Path(value) if value else where.home / ".config"


def app_support(where: Where) -> Path:
    """macOS `~/Library/Application Support`."""
    return where.home / "Library" / "Application Support"


def vscode_user_dir(where: Where, product: str = "Code") -> Path:
    """VS Code's user data dir (`<Code>` in host-configs.md)."""
    if where.os == "windows":
        return appdata(where) / product / "User"
    if where.os == "macos":
        return app_support(where) / product / "User"
    return xdg_config(where) / product / "User"


def claude_desktop_dir(where: Where) -> Path:
    """Claude Desktop's folder; on Windows the MSIX (Store) location wins when it exists.

    MSIX builds read `%LOCALAPPDATA%\\Packages\\Claude_<id>\\LocalCache\\Roaming\\Claude`
    while "Edit Config" opens `%APPDATA%\\Claude`, and servers then silently do not load.
    """
    if where.os == "macos":
        return app_support(where) / "Claude"
    if where.os == "windows":
        local = where.env.get("LOCALAPPDATA")
        if local:
            packages = Path(local) / "Packages"
            # The package folder is enough: the app reads there even before it has
            # created its own config folder.
            candidates = (
                sorted(p for p in packages.glob("Claude_*") if p.is_dir())
                if packages.is_dir()
                else []
            )
            if candidates:
                return candidates[0] / "LocalCache" / "Roaming" / "Claude"
        return appdata(where) / "Claude"
    return xdg_config(where) / "Claude"
