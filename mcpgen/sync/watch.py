"""`mcpgen generate --watch`: the saves of a manifest, as they happen."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

# How often the watch loop wakes up without a change: only the first wake-up matters (the
# caller runs its first generate once the watcher is live); later ones are ignored.
_TICK_MS = 100


def manifest_saves(manifest: Path, stop_event: threading.Event | None = None) -> Iterator[bool]:
    """Yield once the watcher is live (the value is then meaningless), then `True` after each
    save of `manifest` (`False` on idle ticks); ends on Ctrl-C or when `stop_event` is set."""
    import watchfiles

    target = manifest.resolve()

    # Watch the directory, not the file: editors save by writing a new file and renaming it
    # over the old one, which would end a watch on the old file's inode.
    def is_manifest(_change: object, path: str) -> bool:
        return Path(path).resolve() == target

    changes = watchfiles.watch(
        target.parent,
        watch_filter=is_manifest,
        recursive=False,
        raise_interrupt=False,  # Ctrl-C ends the loop quietly: the CLI then exits 0
        stop_event=stop_event,
        rust_timeout=_TICK_MS,
        yield_on_timeout=True,
    )
    for changed in changes:
        yield bool(changed)
