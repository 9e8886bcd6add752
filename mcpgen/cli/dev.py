"""`mcpgen dev [DIR] [--port P]`: generate, serve over HTTP, restart on every change."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from mcpgen.commands.dev import ChangeFeed, ServerProcess
    from mcpgen.manifest.model import Manifest

HELP = """Serve the project at http://127.0.0.1:PORT/mcp and restart it on every change.

Generates, then runs the server from the project's own `.venv` over Streamable HTTP, and
prints the MCP Inspector command for it. A save of `mcpgen.yaml` or of an imported spec
(under `openapi/`) generates again and restarts the server; a save of any `.py` under `src/`
restarts it. A manifest with errors prints them (`file:line:col`) and keeps the last good
server answering. Ctrl-C stops the server and the watch.

Exit codes: 0 stopped with Ctrl-C; 1 the port is busy, no `.venv`, or no manifest;
2 bad command line.
"""


def dev(
    directory: Annotated[
        Path, typer.Argument(help="Project directory (or its manifest file).", show_default=False)
    ] = Path("."),
    port: Annotated[
        int, typer.Option("--port", help="Port on 127.0.0.1 to serve at.", min=1, max=65535)
    ] = 8000,
) -> None:
    """Serve and restart until Ctrl-C (help: `HELP`)."""
    from mcpgen.cli import err
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.call import project_python
    from mcpgen.commands.dev import ChangeFeed, ServerProcess, ensure_port_free, warm_up_generate

    manifest_path = find_project_manifest(directory)
    root = manifest_path.parent
    ensure_port_free(port)
    project_python(root)  # no .venv: said now, before anything runs or is written
    # Ctrl-C and SIGTERM both stop the session, even when the shell that started mcpgen in
    # the background had Ctrl-C ignored (which Python would otherwise keep).
    previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    session = _Loop(ChangeFeed(root, manifest_path), ServerProcess(root, port), manifest_path)
    try:
        manifest = _generate(root, manifest_path, err)
        session.feed.start()
        warm_up_generate()  # while the server starts, which mcpgen only waits for
        if manifest is not None:
            session.serve(manifest, err)
        _announce(port, err, serving=session.server.pid is not None)
        session.run(err)
    except KeyboardInterrupt:
        pass
    finally:
        session.feed.stop()
        session.server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    err.print("Stopped the server and the watch.")


def _interrupt(_signum: int, _frame: FrameType | None) -> None:
    """SIGINT and SIGTERM end `mcpgen dev`: the server is stopped, not orphaned."""
    raise KeyboardInterrupt


def _generate(root: Path, manifest_path: Path, console: Console) -> Manifest | None:
    """Generate; the manifest when it succeeded (errors are printed, located)."""
    from mcpgen.cli.watch import Interrupted, run_once
    from mcpgen.manifest import load_manifest

    try:
        if not run_once(root, manifest_path, force=False, console=console):
            return None
    except Interrupted:
        raise KeyboardInterrupt from None
    return load_manifest(manifest_path)


def _announce(port: int, console: Console, *, serving: bool) -> None:
    from rich.markup import escape

    from mcpgen.commands.dev import inspector_command, url_of

    if serving:
        console.print(f"Serving {url_of(port)}")
    else:
        console.print(f"Will serve {url_of(port)} once the manifest generates")
    console.print(f"Inspect it: {escape(inspector_command(port))}")
    console.print("Watching mcpgen.yaml, openapi/ and src/ (Ctrl-C to stop)")


class _Loop:
    """The running session: the watch and the server (not running until a manifest generated)."""

    def __init__(self, feed: ChangeFeed, server: ServerProcess, manifest_path: Path) -> None:
        self.feed, self.server, self.manifest_path = feed, server, manifest_path

    def serve(self, manifest: Manifest, console: Console) -> bool:
        """Restart the server on `manifest`'s project; False (and why) when it did not start."""
        from mcpgen.cli.present import print_error
        from mcpgen.errors import McpgenError

        try:
            self.server.restart(manifest)
        except McpgenError as exc:
            print_error(console, exc)
            console.print("Waiting for a change to start it again.")
            return False
        return True

    def _report_exit(self, console: Console) -> None:
        """A server that ended by itself (its code exited) is said once; the next change
        starts it again."""
        code = self.server.exited()
        if code is not None:
            console.print(f"The server exited with {code}; waiting for a change to start it again.")

    def run(self, console: Console) -> None:
        """On each batch of changes: generate when the manifest or a spec changed (a broken
        one keeps the server), then restart; until Ctrl-C."""
        from mcpgen.commands.dev import describe

        root = self.manifest_path.parent
        while True:
            changes = self.feed.next_batch(0.5, since=self.server.started_at)
            if not changes:
                self._report_exit(console)
                continue
            began = time.monotonic()
            console.rule(f"changed: {describe(changes)}")
            manifest = self.server.manifest
            generated = ""
            if "manifest" in changes:
                fresh = _generate(root, self.manifest_path, console)
                generated = f", generate {time.monotonic() - began:.2f} s of it"
                if fresh is None and manifest is not None:
                    console.print("The server keeps answering with the last good manifest.")
                if fresh is None and "source" not in changes:
                    continue
                self.feed.refresh_generated()
                manifest = fresh or manifest
            if manifest is not None and self.serve(manifest, console):
                console.print(f"Restarted in {time.monotonic() - began:.2f} s{generated}")


def register(app: typer.Typer) -> None:
    """Add `mcpgen dev` to the `mcpgen` app."""
    app.command("dev", help=HELP)(dev)
