"""`mcpgen generate --watch`: regenerate on every save of the manifest, never exit on an error."""

from __future__ import annotations

import threading
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from mcpgen.cli import present
from mcpgen.errors import McpgenError


def run_once(root: Path, manifest: Path, *, force: bool, console: Console) -> bool:
    """One generate run that prints a user error instead of raising it; True on success."""
    from mcpgen.cli.generate import generate_and_report

    try:
        generate_and_report(root, console, force=force, manifest_path=manifest)
    except McpgenError as exc:
        present.print_error(console, exc)
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
    from mcpgen.sync.watch import manifest_saves

    watching = False
    try:
        for changed in manifest_saves(manifest, stop_event):
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
