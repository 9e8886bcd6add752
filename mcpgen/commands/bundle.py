"""`mcpgen bundle`: pack a project into an MCP Bundle (`.mcpb`, a zip with `manifest.json`).

A bundle is what mcpgen.yaml renders plus the user's handlers, nothing else: the project
must pass `mcpgen generate --check` (no stale file, no hand-edited generated file, no
interrupted run), the generated files packed are compared byte for byte with the render as
they are read, and `bundle_files` keeps out everything from outside the project and every
`.env` file. Any refusal is one line, and nothing is written.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from mcpgen.commands.bundle_files import Member, select_members, shown
from mcpgen.errors import McpgenError
from mcpgen.write.atomic import fsync_directory

if TYPE_CHECKING:
    from mcpgen.generation.report import Prepared

# Fixed member timestamps: the same project gives the same bytes, whenever it is packed.
_EPOCH = (1980, 1, 1, 0, 0, 0)
_CHUNK = 1 << 20  # files are streamed: a large one never sits in memory whole
_NOTHING_WRITTEN = "; nothing was written"
_LISTED = 3  # paths named in a one-line refusal; the rest are counted


@dataclass(frozen=True)
class Bundle:
    """A `.mcpb` written: where, what it holds, its size, and the `.env` files kept out."""

    path: Path
    members: tuple[str, ...]
    size: int
    left_out: tuple[str, ...] = ()  # `.env` files found and not packed


def _default_output(root: Path, distribution: str, version: str) -> Path:
    """`dist/<distribution>-<version>.mcpb` in the project, where `--output` is not given."""
    return root / "dist" / f"{distribution}-{version}.mcpb"


def build_bundle(manifest_path: Path, output: Path | None = None) -> Bundle:
    """Pack the project holding `manifest_path`; it must be exactly what it renders."""
    root = manifest_path.parent.resolve()
    prepared = current_project(root, manifest_path)
    manifest = prepared.manifest
    rendered = {f.path: f.content.encode("utf-8") for f in prepared.plan.by_owner("generated")}
    selection = select_members(root)
    if output is None:
        target = _default_target(root, manifest.distribution, manifest.version)
    else:
        target = output
    _check_target(root, target)
    size = _write_bundle(target, selection.members, rendered)
    names = tuple(m.name for m in selection.members)
    return Bundle(path=target, members=names, size=size, left_out=selection.left_out)


def current_project(root: Path, manifest_path: Path) -> Prepared:
    """The project's plan, if its generated files are what `mcpgen generate` would write
    (the check `generate --check` makes, with the state file's hashes telling hand edits);
    McpgenError otherwise. Reads only."""
    from mcpgen.generation.engine import prepare
    from mcpgen.write.journal import JOURNAL_PATH

    if os.path.lexists(root / JOURNAL_PATH):
        raise McpgenError(
            f"{JOURNAL_PATH}: an mcpgen run was interrupted in this project; run `mcpgen "
            f"generate` first, which finishes or undoes it{_NOTHING_WRITTEN}"
        )
    prepared = prepare(root, manifest_path=manifest_path)
    conflicts = prepared.applied.conflicts
    if conflicts:
        first = conflicts[0]
        more = f" (and {len(conflicts) - 1} more)" if len(conflicts) > 1 else ""
        raise McpgenError(
            f"{first.path}{more}: {first.reason}; a bundle holds only what mcpgen.yaml renders: "
            "undo the edit, or take mcpgen's with `mcpgen generate --force` (keeps <file>.orig)"
            f"{_NOTHING_WRITTEN}"
        )
    stale = prepared.applied.stale()
    if stale:
        raise McpgenError(
            f"generated files are out of date ({_listed(stale)}); run `mcpgen generate` first"
            f"{_NOTHING_WRITTEN}"
        )
    return prepared


def _listed(paths: Sequence[str]) -> str:
    named = ", ".join(paths[:_LISTED])
    rest = len(paths) - _LISTED
    return f"{named} and {rest} more" if rest > 0 else named


def _default_target(root: Path, distribution: str, version: str) -> Path:
    """dist/NAME-VERSION.mcpb, which must stay inside the project."""
    dist = root / "dist"
    if os.path.islink(dist):
        raise McpgenError(
            f"{dist}: a symlink (to {shown(os.readlink(dist))}); the default bundle path stays "
            f"inside the project: remove the link, or choose a path with --output"
            f"{_NOTHING_WRITTEN}"
        )
    return _default_output(root, distribution, version)


def _check_target(root: Path, target: Path) -> None:
    """Write only a new file or over an earlier bundle, never into what the bundle packs."""
    where = shown(str(target))
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise McpgenError(f"cannot use {where}: {exc.strerror or exc}{_NOTHING_WRITTEN}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a regular file"
        raise McpgenError(f"{where} is {kind}; choose another --output{_NOTHING_WRITTEN}")
    if info is not None and not zipfile.is_zipfile(target):
        raise McpgenError(
            f"{where} exists and is not a bundle; mcpgen bundle replaces only an earlier "
            f"bundle: choose another --output{_NOTHING_WRITTEN}"
        )
    parent = Path(os.path.realpath(target.parent))
    if parent.is_relative_to(root / "src"):
        raise McpgenError(
            f"{where} is inside src/, which the bundle packs: the next bundle would hold this "
            f"one; choose another --output{_NOTHING_WRITTEN}"
        )


def _write_bundle(target: Path, members: Sequence[Member], rendered: Mapping[str, bytes]) -> int:
    """Write the zip next to `target`, then rename it over: all of it or nothing."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise McpgenError(f"could not write {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "w+b") as stream:
            _zip(stream, members, rendered)
            stream.flush()
            os.fsync(stream.fileno())
            size = os.fstat(stream.fileno()).st_size
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise McpgenError(
            f"could not write {target}: {exc.strerror or exc}{_NOTHING_WRITTEN}"
        ) from None
    except RuntimeError:  # zipfile: a file grew past its zip headers while it was packed
        Path(temp).unlink(missing_ok=True)
        raise McpgenError(
            f"a file of the project grew while the bundle was packed; run `mcpgen bundle` "
            f"again{_NOTHING_WRITTEN}"
        ) from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    fsync_directory(target.parent)
    return size


def _zip(stream: IO[bytes], members: Sequence[Member], rendered: Mapping[str, bytes]) -> None:
    with zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            info = zipfile.ZipInfo(member.name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.file_size = member.size  # zip64 headers only for a file that needs them
            with _open_member(member) as source, archive.open(info, "w") as sink:
                expected = rendered.get(member.name)
                if expected is None:
                    shutil.copyfileobj(source, sink, _CHUNK)
                else:
                    sink.write(_as_rendered(member, source, expected))


def _open_member(member: Member) -> IO[bytes]:
    """The member's file, and no other: not a link or a FIFO swapped in since it was chosen."""
    try:
        fd = os.open(member.source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise McpgenError(
            f"cannot read {shown(member.name)}: {exc.strerror or exc}{_NOTHING_WRITTEN}"
        ) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or (info.st_dev, info.st_ino) != member.identity:
        os.close(fd)
        raise McpgenError(
            f"{shown(member.name)} was replaced while the bundle was packed; run `mcpgen bundle` "
            f"again{_NOTHING_WRITTEN}"
        )
    return os.fdopen(fd, "rb")


def _as_rendered(member: Member, source: IO[bytes], expected: bytes) -> bytes:
    data = source.read(len(expected) + 1)
    if data != expected:
        raise McpgenError(
            f"{member.name} changed while the bundle was packed (it is no longer what mcpgen "
            f"generates); run `mcpgen generate`, then `mcpgen bundle` again{_NOTHING_WRITTEN}"
        )
    return data
