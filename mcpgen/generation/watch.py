"""`mcpgen generate --watch`: the saves of a manifest and of the files it embeds, as they happen.

Folders are watched, not files: editors save by writing a new file and renaming it over the
old one, which would end a watch on the old file's inode. Only the watched files' own names
count, so an editor's swap and backup files (`.mcpgen.yaml.swp`, `mcpgen.yaml~`) and
everything `generate` writes are ignored. A symlinked file is watched under both its names.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from pathlib import Path

# How often the watch loop wakes up without a change: the caller's first generate runs on the
# first wake-up, and a run refused because another mcpgen held the lock is retried on later ones.
_TICK_MS = 100

# The stat fields that change when a file is saved, in place or by a rename.
Fingerprint = tuple[tuple[str, tuple[int, int, int] | None], ...]


def _key(path: str | os.PathLike[str]) -> str:
    """A path as the kernel reports it: its folder's real path, and its own name (a symlink's
    own name, not its target's)."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.realpath(folder), name)


@dataclass(frozen=True)
class WatchedFiles:
    """The files whose saves count, and the folders to watch for them."""

    keys: frozenset[str]  # the files, and any missing folder on the way to one
    folders: frozenset[str]  # the nearest existing folder of each

    @classmethod
    def of(cls, files: Iterable[Path]) -> WatchedFiles:
        """The keys and folders to watch for `files`, symlinked ones under both their names."""
        names: set[str] = set()
        for file in files:
            names.add(_key(file))
            names.add(os.path.realpath(file))  # a symlink's target, saved where it lives
        keys: set[str] = set()
        folders: set[str] = set()
        for name in names:
            keys.add(name)
            folder = os.path.dirname(name)
            # A folder that does not exist yet (data/ before its first file) is watched for
            # from the nearest one that does: its creation counts as a save.
            while not os.path.isdir(folder) and os.path.dirname(folder) != folder:
                keys.add(folder)
                folder = os.path.dirname(folder)
            folders.add(folder)
        return cls(frozenset(keys), frozenset(folders))

    def fingerprint(self) -> Fingerprint:
        """What the files look like now: compared across a restart of the watcher, so a save
        made while no watcher was live is not lost."""
        return tuple((key, _stat(key)) for key in sorted(self.keys))


def _stat(path: str) -> tuple[int, int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size, status.st_ino)


def saves(
    watched: WatchedFiles, stop_event: threading.Event | None = None
) -> Generator[bool, None, None]:
    """Yield once the watcher is live, then `True` after each save of a watched file and
    `False` on idle ticks; ends when `stop_event` is set, raises KeyboardInterrupt on Ctrl-C."""
    import watchfiles

    def is_watched(_change: object, path: str) -> bool:
        return _key(path) in watched.keys or path in watched.keys

    changes = watchfiles.watch(
        *sorted(watched.folders),
        watch_filter=is_watched,
        recursive=False,
        raise_interrupt=True,  # the caller stops on Ctrl-C, wherever it comes
        stop_event=stop_event,
        rust_timeout=_TICK_MS,
        yield_on_timeout=True,
    )
    for changed in changes:
        yield bool(changed)


def manifest_saves(
    manifest: Path, stop_event: threading.Event | None = None
) -> Generator[bool, None, None]:
    """The saves of `manifest` alone (see `saves`)."""
    return saves(WatchedFiles.of([manifest]), stop_event)


def _generated_files(root: Path) -> frozenset[str]:
    """The files the last run generated: never watched, or a resource embedding one would
    have each run trigger the next."""
    from mcpgen.errors import McpgenError
    from mcpgen.write.state import load_state

    try:
        state = load_state(root)
    except (McpgenError, OSError):
        return frozenset()
    return frozenset(state.files) if state is not None else frozenset()


def embedded_files(root: Path, manifest: Path) -> list[Path]:
    """The manifest, the project files its resources embed (`file:`) and its OpenAPI specs,
    as far as the manifest can be read now; an unreadable one embeds nothing."""
    from mcpgen.manifest.load import load_yaml

    try:
        data = load_yaml(manifest.read_text(encoding="utf-8"), str(manifest)).data
    except (OSError, UnicodeDecodeError, RecursionError):
        data = None
    resources = data.get("resources") if isinstance(data, dict) else None
    base = Path(os.path.abspath(root))
    generated = _generated_files(root)
    files = [manifest]
    sources = data.get("openapi") if isinstance(data, dict) else None
    embedded = [
        entry.get(key)
        for key, entries in (("file", resources), ("spec", sources))  # OpenAPI specs are read too
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, dict)
    ]
    for name in embedded:
        if isinstance(name, str) and name and "\0" not in name:
            path = Path(os.path.normpath(base / name))
            inside = path.is_relative_to(base)  # generate refuses the others
            if inside and path.relative_to(base).as_posix() not in generated:
                files.append(path)
    return files
