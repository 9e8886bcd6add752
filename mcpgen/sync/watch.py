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
    run_once(root, manifest, force=force, console=console)
    console.print(f"Watching {escape(str(manifest))} for changes (Ctrl-C to stop)")

    # Watch the directory, not the file: editors save by writing a new file and renaming it
    # over the old one, which would end a watch on the old file's inode.
    def is_manifest(_change: object, path: str) -> bool:
        return Path(path).resolve() == target

    for _changes in watchfiles.watch(
        target.parent,
        watch_filter=is_manifest,
        recursive=False,
        raise_interrupt=False,  # Ctrl-C ends the loop quietly: the CLI then exits 0
        stop_event=stop_event,
    ):
        console.rule("manifest changed")
        run_once(root, manifest, force=force, console=console)
