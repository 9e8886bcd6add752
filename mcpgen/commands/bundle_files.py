"""The files of a project that go into its MCP Bundle, chosen so that nothing from outside
the project, and no secret, gets in.

A bundle is handed to other people: one stray symlink (`src/pkg/data -> /`, `README.md ->
~/.ssh/id_rsa`) would ship whatever it points to. So every entry is looked at without following
links first; a symlink is followed only when it resolves inside the project, to a folder not
already packed (which also stops loops); a regular file with more than one hard link may be
a file from anywhere and is refused; `.env` files are never packed. Names must survive every
host's unzip: valid UTF-8, no control characters, no backslash.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from mcpgen.errors import McpgenError

# What a `uv` bundle needs: the host runs `uv run` in the unpacked folder, which builds the
# project from pyproject.toml (README.md is its readme) and src/.
ROOT_FILES = ("manifest.json", "pyproject.toml", "README.md")
SOURCE_FOLDER = "src"
# A nested repository's `.git` holds history and maybe credentials (remote URLs), never code.
_SKIPPED_NAMES = frozenset({"__pycache__", ".git"})
_SKIPPED_SUFFIXES = (".pyc", ".pyo")
_NOT_PACKED = "; nothing was written"


def is_secret(name: str) -> bool:
    """A dotenv file or folder: `.env`, `.env.local`, `prod.env`, direnv's `.envrc`, in any
    case (`.ENV` is the same file where names ignore case)."""
    name = name.lower()
    return name in (".env", ".envrc") or name.startswith(".env.") or name.endswith(".env")


def shown(name: str) -> str:
    """A file name as one printable line: control characters and undecodable bytes escaped."""
    text = repr(name)[1:-1]
    return text.replace("\\\\", "\\")  # keep ordinary backslashes as they are


@dataclass(frozen=True)
class Member:
    """One file of the bundle: its name there, and the file inside the project it holds."""

    name: str  # POSIX path inside the bundle
    source: Path  # resolved: no symlink left on the way
    size: int
    identity: tuple[int, int]  # (st_dev, st_ino) when chosen: the file read must be this one


@dataclass(frozen=True)
class Selection:
    """What goes into the bundle, and the secret files kept out of it."""

    members: tuple[Member, ...]
    left_out: tuple[str, ...]  # secret files and folders, never packed


def _refuse(name: str, why: str) -> McpgenError:
    """The one-line error for a project path the bundle will not pack, saying why."""
    return McpgenError(
        f"{shown(name)}: {why}; mcpgen bundle packs only the project's own files{_NOT_PACKED}"
    )


@dataclass
class _Walk:
    root: Path  # resolved
    members: list[Member] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    folders: set[Path] = field(default_factory=set)  # resolved folders already entered

    def walk(self, names: tuple[str, ...]) -> None:
        """Look at each of `names` (relative to the root) and everything under it; a stack,
        not recursion, so that no folder depth can exhaust Python's."""
        pending = [(name, self.root / name) for name in reversed(names)]
        while pending:
            name, path = pending.pop()
            pending += reversed(self.entry(name, path))

    def entry(self, name: str, path: Path) -> list[tuple[str, Path]]:
        """Pack `path`, known in the bundle as `name`, or say why not; a folder's entries
        come back, to be looked at next."""
        leaf = name.rpartition("/")[2]
        _check_name(name, leaf)
        if is_secret(leaf):
            self.left_out.append(name)
            return []
        if leaf in _SKIPPED_NAMES or leaf.endswith(_SKIPPED_SUFFIXES):
            return []
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            path = self._link_target(name, path)
            info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            return self._folder(name, path)
        if stat.S_ISREG(info.st_mode):
            if info.st_nlink > 1:
                raise _refuse(
                    name,
                    f"has {info.st_nlink} hard links, so it may be a file from outside the project "
                    "(make it a file of its own: copy it, then move the copy over it)",
                )
            self.members.append(Member(name, path, info.st_size, (info.st_dev, info.st_ino)))
            return []
        raise _refuse(name, "is not a regular file or folder")

    def _link_target(self, name: str, path: Path) -> Path:
        """Where the symlink `path` leads, if that is inside the project and no secret."""
        try:
            target = Path(os.path.realpath(path, strict=True))
        except OSError as exc:
            problem = "is a symlink loop" if exc.errno == errno.ELOOP else "is a broken symlink"
            raise _refuse(name, problem) from None
        if not target.is_relative_to(self.root):
            raise _refuse(name, f"is a symlink to {shown(str(target))}, outside the project")
        inside = target.relative_to(self.root)
        if any(is_secret(part) for part in inside.parts):
            raise _refuse(name, f"is a symlink to {shown(inside.as_posix())}, a secrets file")
        if any(part in _SKIPPED_NAMES for part in inside.parts):
            raise _refuse(name, f"is a symlink to {shown(inside.as_posix())}, never packed")
        return target

    def _folder(self, name: str, path: Path) -> list[tuple[str, Path]]:
        # `path` is already real: the root is resolved, a link is resolved where it is met,
        # and any other entry is its real folder plus a name that is no link.
        if path in self.folders:
            raise _refuse(
                name,
                "leads (through a symlink) to a folder the bundle already holds: a loop or a "
                "second copy",
            )
        self.folders.add(path)
        return [(f"{name}/{child}", path / child) for child in sorted(os.listdir(path))]


def _check_name(name: str, leaf: str) -> None:
    try:
        leaf.encode("utf-8")
    except UnicodeEncodeError:
        raise _refuse(name, "is not a UTF-8 name, which a bundle cannot hold; rename it") from None
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in leaf):
        raise _refuse(name, "has a control character in its name; rename it")
    if "\\" in leaf:
        raise _refuse(name, "has a backslash in its name, a folder separator on Windows; rename it")


def select_members(root: Path) -> Selection:
    """The bundle's files, sorted by name; McpgenError for anything it must not pack."""
    walk = _Walk(root.resolve(strict=True))
    walk.folders.add(walk.root)
    present = (*ROOT_FILES, SOURCE_FOLDER)
    try:
        walk.walk(tuple(name for name in present if os.path.lexists(walk.root / name)))
    except OSError as exc:  # a file removed or made unreadable while it was looked at
        where = exc.filename or root
        raise McpgenError(f"cannot read {where}: {exc.strerror or exc}{_NOT_PACKED}") from None
    members = sorted(walk.members, key=lambda m: m.name)
    return Selection(tuple(members), tuple(sorted(walk.left_out)))
