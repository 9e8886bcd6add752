"""How a host starts the server over stdio: the launcher choice and its per-OS spelling.

Hosts that are GUI apps do not see the shell's PATH, so every launch here is absolute
where it can be: the venv's own script, or `uv` resolved with `which` on the machine
the snippet is for. Those lookups happen once, in `gather_facts`, at the command's edge;
everything else here is a pure function of the manifest and the `MachineFacts`.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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
    """The OS mcpgen runs on, named as snippets name it."""
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
        """The command followed by its arguments."""
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


# The programs a launcher runs, resolved to absolute paths where the machine has them.
LAUNCHER_PROGRAMS = ("uv", "uvx", "pipx")


@dataclass(frozen=True)
class MachineFacts:
    """What a launch command depends on besides the manifest: the target OS, whether the
    project has a `.venv`, and where the launcher programs are (on this machine only)."""

    os_name: OsName
    has_venv: bool = False
    programs: Mapping[str, str] = field(default_factory=dict)  # name → absolute path

    def program(self, name: str) -> str:
        """The absolute path found for `name` on this machine, else the bare name (left to PATH)."""
        return self.programs.get(name, name)

    def launcher(self, requested: str | None) -> Launcher:
        """The requested launcher, else `venv` when the project has one, else `uv`."""
        if requested is None:
            return "venv" if self.has_venv else "uv"
        if requested not in LAUNCHERS:
            choices = ", ".join(LAUNCHERS)
            raise McpgenError(f"unknown launcher {requested!r}; choose one of: {choices}")
        return requested


def gather_facts(
    root: Path, os_name: OsName | None = None, which: Which = shutil.which
) -> MachineFacts:
    """Look at the machine once: the project's venv, and the launcher programs on PATH."""
    here = current_os()
    target = os_name or here
    # Resolve programs only for the OS we are running on: a Linux `which` answer is
    # meaningless in a snippet meant for Windows.
    found = {name: which(name) for name in LAUNCHER_PROGRAMS} if target == here else {}
    programs = {name: path for name, path in found.items() if path}
    return MachineFacts(target, (root / ".venv").is_dir(), programs)


def build_launch(
    manifest: Manifest, root: PurePath, launcher: Launcher, facts: MachineFacts
) -> Launch:
    """The stdio launch command for the chosen launcher."""
    script, os_name = manifest.script, facts.os_name
    if launcher == "venv":
        return Launch(venv_script(root, script, os_name))
    if launcher == "uv":
        directory = str(project_path(root, os_name))
        return Launch(facts.program("uv"), ("run", "--directory", directory, script))
    if launcher == "uvx":
        return Launch(facts.program("uvx"), ("--from", manifest.distribution, script))
    return Launch(facts.program("pipx"), ("run", "--spec", manifest.distribution, script))


def npx_launch(args: tuple[str, ...], os_name: OsName) -> Launch:
    """`npx ...`; on Windows `npx` is a `.cmd` shim hosts cannot spawn directly: `cmd /c`."""
    if os_name == "windows":
        return Launch("cmd", ("/c", "npx", *args))
    return Launch("npx", args)
