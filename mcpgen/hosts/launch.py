"""How a host starts the server over stdio: the launcher choice and its per-OS spelling.

Hosts that are GUI apps do not see the shell's PATH, so every launch here is absolute
where it can be: the venv's own script, or `uv` resolved with `which` on the machine
the snippet is for.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Literal, get_args

from mcpgen.errors import McpgenError
from mcpgen.manifest.model import Manifest

OsName = Literal["linux", "macos", "windows"]
Launcher = Literal["venv", "uv", "uvx", "pipx"]
LAUNCHERS: tuple[Launcher, ...] = get_args(Launcher)
OS_NAMES: tuple[OsName, ...] = get_args(OsName)

Which = Callable[[str], str | None]


def current_os() -> OsName:
    if sys.platform == "win32":
        return "windows"
    if sys.platform == "darwin":
        return "macos"
    return "linux"


@dataclass(frozen=True)
class Launch:
    """A program and its arguments; `command` is the executable alone (hosts split nothing)."""

    command: str
    args: tuple[str, ...] = ()

    @property
    def argv(self) -> list[str]:
        return [self.command, *self.args]


def project_path(root: PurePath, os_name: OsName) -> PurePath:
    """The project root spelled for the target OS (a simulated Windows root keeps its drive)."""
    if os_name == "windows":
        return PureWindowsPath(str(root))
    return PurePosixPath(str(root))


def venv_script(root: PurePath, script: str, os_name: OsName) -> str:
    """The console script inside the project's `.venv`, absolute."""
    base = project_path(root, os_name) / ".venv"
    if os_name == "windows":
        return str(base / "Scripts" / f"{script}.exe")
    return str(base / "bin" / script)


def is_absolute(command: str, os_name: OsName) -> bool:
    """Whether a launch command is an absolute path on the target OS."""
    if os_name == "windows":
        return PureWindowsPath(command).is_absolute()
    return PurePosixPath(command).is_absolute()


def has_venv(root: Path) -> bool:
    return (root / ".venv").is_dir()


def choose_launcher(root: Path, requested: str | None) -> Launcher:
    """The requested launcher, else `venv` when the project has one, else `uv`."""
    if requested is None:
        return "venv" if has_venv(root) else "uv"
    if requested not in LAUNCHERS:
        raise McpgenError(f"unknown launcher {requested!r}; choose one of: {', '.join(LAUNCHERS)}")
    return requested


def _program(name: str, os_name: OsName, which: Which | None) -> str:
    # Resolve to an absolute path only for the OS we are running on: a Linux `which`
    # answer is meaningless in a snippet meant for Windows.
    if which is None or os_name != current_os():
        return name
    return which(name) or name


def build_launch(
    manifest: Manifest,
    root: PurePath,
    launcher: Launcher,
    os_name: OsName,
    which: Which | None = shutil.which,
) -> Launch:
    """The stdio launch command for the chosen launcher."""
    script = manifest.script
    if launcher == "venv":
        return Launch(venv_script(root, script, os_name))
    if launcher == "uv":
        directory = str(project_path(root, os_name))
        return Launch(_program("uv", os_name, which), ("run", "--directory", directory, script))
    if launcher == "uvx":
        return Launch(_program("uvx", os_name, which), ("--from", manifest.distribution, script))
    return Launch(
        _program("pipx", os_name, which), ("run", "--spec", manifest.distribution, script)
    )


def npx_launch(args: tuple[str, ...], os_name: OsName) -> Launch:
    """`npx ...`; on Windows `npx` is a `.cmd` shim hosts cannot spawn directly: `cmd /c`."""
    if os_name == "windows":
        return Launch("cmd", ("/c", "npx", *args))
    return Launch("npx", args)
