"""`mcpgen generate --watch`: a real watcher on a generated project, driven by manifest saves.

The watcher runs in a thread with a `stop_event`; each step waits (bounded, polling every
20 ms) for what the user would see: new files, or an error message.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rich.console import Console

from mcpgen.cli.watch import watch_project

from .conftest import Run
from .helpers import snapshot_tree

HANDLERS = "src/demo/handlers"
PING = "tools:\n  - name: ping\n    input_schema: {type: object}\n"
PONG = "tools:\n  - name: pong\n    input_schema: {type: object}\n"
STEP_TIMEOUT = 8.0  # generous for a loaded CI machine; a step normally takes well under 1 s


def wait_until(condition: Callable[[], bool], what: str, timeout: float = STEP_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


class Watcher:
    """`watch_project` in a thread, its output in a buffer."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.buffer = io.StringIO()
        self.stop = threading.Event()
        console = Console(file=self.buffer, width=200, color_system=None, highlight=False)
        self.thread = threading.Thread(
            target=watch_project,
            args=(root, root / "mcpgen.yaml"),
            kwargs={"console": console, "stop_event": self.stop},
            daemon=True,  # never outlives a failed test
        )

    @property
    def printed(self) -> str:
        return self.buffer.getvalue()

    def wait_printed(self, text: str, count: int = 1) -> None:
        wait_until(lambda: self.printed.count(text) >= count, f"{text!r} x{count} in the output")


@contextmanager
def watching(root: Path) -> Iterator[Watcher]:
    watcher = Watcher(root)
    watcher.thread.start()
    try:
        watcher.wait_printed("Watching")
        yield watcher
    finally:
        watcher.stop.set()
        watcher.thread.join(timeout=STEP_TIMEOUT)
    assert not watcher.thread.is_alive(), "the watcher did not stop on stop_event"


def test_watch_regenerates_reports_errors_and_keeps_going(project: Run) -> None:
    started = time.monotonic()
    with watching(project.root) as watcher:
        assert "Up to date: nothing to write." in watcher.printed  # the first run

        project.edit_manifest("tools:\n", PING)
        handler = project.root / HANDLERS / "ping.py"
        wait_until(handler.is_file, "the ping handler stub")
        watcher.wait_printed("Wrote ")
        tools_py = project.root / "src/demo/_generated/tools.py"
        wait_until(lambda: "ping" in tools_py.read_text(), "ping in the generated tool table")
        assert (project.root / "tests/test_ping.py").is_file()

        before = snapshot_tree(project.root)
        project.edit_manifest("input_schema: {type: object}", "input_schema: {type: strin}")
        watcher.wait_printed("nothing was written")
        assert "mcpgen.yaml:" in watcher.printed  # located diagnostics, not a traceback
        assert "Traceback" not in watcher.printed
        assert watcher.thread.is_alive()
        manifest = (project.root / "mcpgen.yaml").read_bytes()
        assert snapshot_tree(project.root) == {**before, "mcpgen.yaml": manifest}

        project.edit_manifest("input_schema: {type: strin}", "input_schema: {type: object}")
        project.edit_manifest("tools:\n", PONG)
        wait_until((project.root / HANDLERS / "pong.py").is_file, "the pong handler stub")
        watcher.wait_printed("Wrote ", count=2)
        assert "+ pong: tool added" in watcher.printed
    assert time.monotonic() - started < 30


def test_a_save_during_the_first_run_is_not_lost(
    project: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The user saves while the first generate is still running: the watcher must already be
    # live then, or that save is only picked up at the next one.
    from mcpgen.cli import watch

    original = watch.run_once
    calls = 0

    def save_during_first_run(*args: object, **kwargs: object) -> bool:
        nonlocal calls
        calls += 1
        if calls == 1:
            project.edit_manifest("tools:\n", PING)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(watch, "run_once", save_during_first_run)
    with watching(project.root):
        wait_until((project.root / HANDLERS / "ping.py").is_file, "the ping handler stub")
        wait_until(lambda: calls >= 2, "a second run for the save made during the first")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT semantics")
def test_ctrl_c_stops_the_cli_quietly(project: Run) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "mcpgen", "generate", "--watch", str(project.root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stderr is not None
        # Reading line by line is bounded: the process either prints "Watching" or exits.
        lines = iter(process.stderr.readline, "")
        assert any("Watching" in line for line in lines), "the watcher never started"
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=STEP_TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, rest
    assert "Traceback" not in rest
