"""`mcpgen generate --watch`: regenerate on every save of the manifest, never exit on an error."""

from __future__ import annotations

import threading
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from mcpgen.errors import ManifestInvalid, McpgenError
from mcpgen.sync.engine import generate_project


def run_once(root: Path, manifest: Path, *, force: bool, console: Console) -> bool:
    """One generate run that prints a user error instead of raising it; True on success."""
    try:
        generate_project(root, force=force, console=console, manifest_path=manifest)
    except ManifestInvalid as exc:
        for diagnostic in exc.diagnostics:
            style = "red" if diagnostic.level == "error" else "yellow"
            console.print(escape(str(diagnostic)), style=style)
        console.print(f"error: {escape(exc.message)}", style="bold red")
        return False
    except McpgenError as exc:
        console.print(f"error: {escape(exc.message)}", style="bold red")
        return False
    return True


# How often the watch loop wakes up without a change: only the first wake-up matters (it runs
# the first generate once the watcher is live); later ones are ignored.
_TICK_MS = 100


def watch_project(
    root: Path,
    manifest: Path,
    *,
    force: bool = False,
    console: Console,
    stop_event: threading.Event | None = None,
) -> None:
    """Generate now, then after each change to `manifest`, until Ctrl-C or `stop_event`."""
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
    watching = False
    try:
        for changed in changes:
            # The first generate runs inside the loop, once the watcher exists: a save made
            # while it runs is then seen, not lost.
            if not watching:
                run_once(root, manifest, force=force, console=console)
                console.print(f"Watching {escape(str(manifest))} for changes (Ctrl-C to stop)")
                watching = True
            elif changed:
                console.rule("manifest changed")
                run_once(root, manifest, force=force, console=console)
    except KeyboardInterrupt:  # during a run: the transaction has already rolled back
        console.print("Stopped watching.")
