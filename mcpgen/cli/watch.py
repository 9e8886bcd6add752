"""`mcpgen generate --watch`: regenerate on every save of the manifest or of a file it embeds,
never exit on an error."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from mcpgen.cli import present
from mcpgen.errors import McpgenError


class LockTaken(Exception):
    """Another run held the project's lock: the save waits for it, it is not dropped."""


class Interrupted(Exception):
    """A signal (Ctrl-C, SIGTERM, SIGHUP) stopped a run, which undid its writes: the watch
    stops too, as it would have between runs."""

    def __init__(self, exit_code: int) -> None:
        super().__init__(exit_code)
        self.exit_code = exit_code


# The exit codes of a run stopped by a signal: 128 + the signal's number.
_SIGNALLED = 128


def run_once(
    root: Path, manifest: Path, *, force: bool, console: Console, retry_when_locked: bool = False
) -> bool:
    """One generate run that prints a user error instead of raising it; True on success.
    With `retry_when_locked`, the lock's refusal is raised as `LockTaken` instead."""
    from mcpgen.cli.generate_run import generate_and_report

    try:
        generate_and_report(root, console, force=force, manifest_path=manifest)
    except McpgenError as exc:
        if retry_when_locked and _refused_by_the_lock(exc) and _writable(root):
            raise LockTaken(str(exc)) from None
        present.print_error(console, exc)
        if exc.exit_code > _SIGNALLED:
            raise Interrupted(exc.exit_code) from None
        return False
    return True


def _writable(root: Path) -> bool:
    """Whether the lock could be taken at all: a read-only checkout will not become free."""
    folder = root / ".mcpgen"
    return os.access(folder if folder.is_dir() else root, os.W_OK)


def _refused_by_the_lock(exc: BaseException) -> bool:
    """Whether `exc` was raised by `project_lock` itself (not by the work done under it).

    Told by where it was raised, not by its words: the run takes and lets go of the lock
    inside generate, so the watch never holds it longer than a run does."""
    from mcpgen.write import lock

    frame = exc.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    taking = getattr(lock.project_lock, "__wrapped__", None)
    return frame is not None and taking is not None and frame.tb_frame.f_code is taking.__code__


class _Watch:
    """The loop's state: whether a save still waits for its run, and what is watched."""

    def __init__(self, root: Path, manifest: Path, *, force: bool, console: Console) -> None:
        from mcpgen.generation.watch import WatchedFiles, embedded_files

        self.root, self.manifest, self.force, self.console = root, manifest, force, console
        self.watched = WatchedFiles.of(embedded_files(root, manifest))
        self.seen = self.watched.fingerprint()
        self.pending = True  # the first run
        self.started = False
        self.waiting_for_lock = False

    def on_tick(self, changed: bool) -> bool:
        """Run generate if a save waits for it; True when the watched files changed, so the
        watcher must be made anew for them."""
        if changed:
            self.pending = True
        if not self.pending:
            return False
        if self.started and not self.waiting_for_lock:  # not again for each retry
            self.console.rule("saved")
        refusal = self._run()
        if refusal is not None and not self.waiting_for_lock:  # said once, retried each tick
            self.console.print(f"{escape(refusal)}; generating once it is free")
        if not self.started:
            name = escape(str(self.manifest))
            self.console.print(f"Watching {name} for changes (Ctrl-C to stop)")
            self.started = True
        self.waiting_for_lock = refusal is not None
        if self.waiting_for_lock:
            return False
        self.pending = False
        return self._refresh()

    def _run(self) -> str | None:
        """Generate once; the lock's refusal, when another run held it."""
        try:
            run_once(
                self.root,
                self.manifest,
                force=self.force,
                console=self.console,
                retry_when_locked=True,
            )
        except LockTaken as refusal:
            return str(refusal)
        return None

    def _refresh(self) -> bool:
        from mcpgen.generation.watch import WatchedFiles, embedded_files

        watched = WatchedFiles.of(embedded_files(self.root, self.manifest))
        self.seen = watched.fingerprint()
        if watched == self.watched:
            return False
        self.watched = watched
        return True

    def on_restart(self) -> None:
        """A new watcher is live: a save made while none was counts as one."""
        if self.watched.fingerprint() != self.seen:
            self.pending = True


def watch_project(
    root: Path,
    manifest: Path,
    *,
    force: bool = False,
    console: Console,
    stop_event: threading.Event | None = None,
) -> None:
    """Generate now, then after each save of `manifest` or of a `file:` it embeds, until
    Ctrl-C or `stop_event`."""

    state = _Watch(root, manifest, force=force, console=console)
    try:
        while _watch_until_the_files_change(state, stop_event):
            pass  # a run changed which files are watched: a new watcher for them
    except KeyboardInterrupt:
        pass
    except Interrupted as stopped:  # during a run, which undid its writes and said so
        console.print("Stopped watching.")
        if stopped.exit_code != _SIGNALLED + signal.SIGINT:  # Ctrl-C is the way to stop
            raise typer.Exit(stopped.exit_code) from None
        return
    console.print("Stopped watching.")


def _watch_until_the_files_change(state: _Watch, stop_event: threading.Event | None) -> bool:
    """Run on each save until stopped (False) or until a run changes the watched files (True).

    The first generate runs inside the loop, once the watcher exists: a save made while it
    runs is then seen, not lost. Before a watcher goes, the saves it has queued are read, and
    the new one compares the files with how they were when the old one stopped looking."""
    from mcpgen.generation.watch import saves

    events = saves(state.watched, stop_event)
    try:
        for index, changed in enumerate(events):
            if index == 0 and state.started:
                state.on_restart()
            if state.on_tick(changed):
                queued = next(events, None)  # saves made while the run ran
                if queued is None:  # stop_event: no new watcher
                    return False
                state.pending = state.pending or queued
                return True
        return False
    finally:
        events.close()
