"""`mcpgen generate --watch`: a real watcher on a generated project, driven by manifest saves.

The watcher runs in a thread with a `stop_event`; each step waits (bounded, polling every
20 ms) for what the user would see: new files, or an error message.
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
from rich.console import Console

from mcpgen.cli.watch import watch_project
from mcpgen.generation.watch import embedded_files
from mcpgen.write.transaction import DELAY_ENV
from tests.support.demo_project import Run
from tests.support.generate_processes import run_mcpgen
from tests.support.in_memory import snapshot_tree

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


PROCESS_TIMEOUT = 60.0  # a real mcpgen process on a loaded machine: bounded, never a sleep


class WatchProcess:
    """A real `mcpgen generate --watch` process; its stderr read by a thread, so each wait
    is a bounded poll of what it printed so far, never a blocking read."""

    def __init__(
        self,
        root: Path,
        *args: str,
        env: dict[str, str] | None = None,
        prefix: Sequence[str] = (),
    ) -> None:
        self.process = subprocess.Popen(
            [*prefix, sys.executable, "-m", "mcpgen", "generate", "--watch", *args, str(root)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **(env or {})},
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)

    @property
    def printed(self) -> str:
        return "".join(self.lines)

    def wait_printed(self, text: str, count: int = 1) -> None:
        def seen() -> bool:
            if self.process.poll() is not None and not self.reader.is_alive():
                raise AssertionError(f"the watcher exited early:\n{self.printed}")
            return self.printed.count(text) >= count

        wait_until(seen, f"{text!r} x{count} in the output", PROCESS_TIMEOUT)

    def wait_until(self, condition: Callable[[], bool], what: str) -> None:
        try:
            wait_until(condition, what, PROCESS_TIMEOUT)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the watcher printed:\n{self.printed}") from None

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=PROCESS_TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=PROCESS_TIMEOUT)
        return self.process.returncode


@contextmanager
def watch_process(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> Iterator[WatchProcess]:
    watcher = WatchProcess(root, *args, env=env)
    try:
        watcher.wait_printed("Watching")
        yield watcher
    finally:
        watcher.stop()
    assert "Traceback" not in watcher.printed, watcher.printed


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT semantics")
def test_ctrl_c_stops_the_cli_quietly(project: Run) -> None:
    watcher = WatchProcess(project.root)
    try:
        watcher.wait_printed("Watching")
    finally:
        returncode = watcher.stop()
    assert returncode == 0, watcher.printed
    assert "Traceback" not in watcher.printed


HOLD_LOCK = """\
import sys
from pathlib import Path
from mcpgen.write.lock import project_lock
with project_lock(Path(sys.argv[1])):
    print("locked", flush=True)
    sys.stdin.read()
"""


def test_a_save_refused_by_the_lock_is_retried_once_it_is_free(project: Run) -> None:
    with watch_process(project.root) as watcher:
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD_LOCK, str(project.root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
            project.edit_manifest("tools:\n", PING)
            watcher.wait_printed("generating once it is free")
            assert f"pid {holder.pid}" in watcher.printed
            assert not (project.root / HANDLERS / "ping.py").exists()
        finally:
            holder.communicate("", timeout=PROCESS_TIMEOUT)  # end of stdin: the lock is let go
        watcher.wait_until((project.root / HANDLERS / "ping.py").is_file, "the ping handler")
        watcher.wait_printed("Wrote ")
    assert run_mcpgen("generate", "--check", str(project.root)).returncode == 0


RESOURCE = """\
resources:
  - name: settings
    uri: config://settings
    file: data/settings.json
    mime_type: application/json
"""


def test_a_save_of_a_file_resource_regenerates(project: Run) -> None:
    data = project.root / "data/settings.json"
    data.parent.mkdir()
    data.write_text('{"units": "metric"}\n')
    project.manifest(project.root.joinpath("mcpgen.yaml").read_text() + RESOURCE)
    project()
    table = project.root / "src/demo/_generated/catalog_table.py"
    assert "metric" in table.read_text()
    with watch_process(project.root) as watcher:
        data.write_text('{"units": "imperial"}\n')  # in place
        watcher.wait_until(lambda: "imperial" in table.read_text(), "the new data generated")
        watcher.wait_printed("Wrote ")
        replacement = data.with_name("settings.json.tmp")
        replacement.write_text('{"units": "kelvin"}\n')
        replacement.replace(data)  # as editors save: a new file renamed over the old one
        watcher.wait_until(lambda: "kelvin" in table.read_text(), "the renamed data generated")
        watcher.wait_printed("Wrote ", count=2)
    assert run_mcpgen("generate", "--check", str(project.root)).returncode == 0


def test_a_resource_file_in_a_folder_made_later_is_watched(project: Run) -> None:
    project.manifest(project.root.joinpath("mcpgen.yaml").read_text() + RESOURCE)
    with watch_process(project.root) as watcher:
        watcher.wait_printed("data/settings.json")  # the first run: the file is missing
        data = project.root / "data/settings.json"
        data.parent.mkdir()
        data.write_text('{"units": "metric"}\n')
        table = project.root / "src/demo/_generated/catalog_table.py"
        watcher.wait_until(
            lambda: table.is_file() and "metric" in table.read_text(), "the data generated"
        )
        watcher.wait_printed("Wrote ")


def _tools_module(root: Path) -> str:
    return (root / "src/demo/_generated/tools.py").read_text()


def test_many_quick_saves_in_place_end_with_the_last_one(project: Run) -> None:
    manifest = project.root / "mcpgen.yaml"
    original = manifest.read_text()
    with watch_process(project.root) as watcher:
        for index in range(25):
            tool = f"tools:\n  - name: quick_{index}\n    input_schema: {{type: object}}\n"
            with manifest.open("r+") as file:  # in place, as `echo >` or some editors do
                file.truncate(0)
                file.write(original.replace("tools:\n", tool, 1))
        watcher.wait_until(
            lambda: (
                "quick_24" in _tools_module(project.root)
                and watcher.printed.rstrip().endswith(("files.", "nothing to write."))
            ),
            "the last save generated, and its run finished",
        )
        assert (project.root / HANDLERS / "quick_24.py").is_file()
    assert "quick_23" not in _tools_module(project.root)


def test_a_deleted_then_recreated_manifest_keeps_the_watch_going(project: Run) -> None:
    manifest = project.root / "mcpgen.yaml"
    text = manifest.read_text()
    with watch_process(project.root) as watcher:
        manifest.unlink()
        watcher.wait_printed("mcpgen.yaml")  # said, once the run finds it missing
        watcher.wait_printed("error")
        assert watcher.process.poll() is None
        manifest.write_text(text.replace("tools:\n", PING, 1))
        watcher.wait_until((project.root / HANDLERS / "ping.py").is_file, "the ping handler")
        watcher.wait_printed("Wrote ")


def test_editor_swap_files_are_not_saves(project: Run) -> None:
    manifest = project.root / "mcpgen.yaml"
    with watch_process(project.root) as watcher:
        for name in (".mcpgen.yaml.swp", "mcpgen.yaml~", "4913", "#mcpgen.yaml#"):
            (project.root / name).write_text("tools: [broken\n")
        # vim's save: the old file moved to a backup, the new one written in its place.
        manifest.rename(project.root / "mcpgen.yaml~")
        manifest.write_text(
            (project.root / "mcpgen.yaml~").read_text().replace("tools:\n", PING, 1)
        )
        watcher.wait_until((project.root / HANDLERS / "ping.py").is_file, "the ping handler")
        watcher.wait_printed("Wrote ")
    assert "broken" not in watcher.printed and "error" not in watcher.printed


def test_a_symlinked_manifest_is_watched_under_both_names(project: Run, tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    target = shared / "manifest.yaml"
    manifest = project.root / "mcpgen.yaml"
    target.write_text(manifest.read_text())
    manifest.unlink()
    manifest.symlink_to(target)
    with watch_process(project.root) as watcher:
        replacement = shared / "manifest.yaml.new"
        replacement.write_text(target.read_text().replace("tools:\n", PING, 1))
        replacement.replace(target)  # saved where the file lives
        watcher.wait_until((project.root / HANDLERS / "ping.py").is_file, "the ping handler")
        other = shared / "other.yaml"
        other.write_text(target.read_text().replace("tools:\n", PONG, 1))
        manifest.unlink()
        manifest.symlink_to(other)  # the link itself pointed elsewhere
        watcher.wait_until((project.root / HANDLERS / "pong.py").is_file, "the pong handler")
        watcher.wait_printed("Wrote ", count=2)


def test_a_killed_watch_is_recovered_by_the_next_generate(project: Run) -> None:
    from mcpgen.write.journal import JOURNAL_PATH

    watcher = WatchProcess(project.root, env={DELAY_ENV: "0.2"})
    try:
        watcher.wait_printed("Watching")
        project.edit_manifest("tools:\n", PING)
        watcher.wait_until((project.root / JOURNAL_PATH).is_file, "the run's journal")
    finally:
        watcher.process.kill()  # SIGKILL, mid-write
        watcher.process.wait(timeout=PROCESS_TIMEOUT)
    done = run_mcpgen("generate", str(project.root))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (project.root / HANDLERS / "ping.py").is_file()
    assert run_mcpgen("generate", "--check", str(project.root)).returncode == 0


@pytest.mark.parametrize(("signum", "exit_code"), [(signal.SIGINT, 0), (signal.SIGTERM, 143)])
def test_a_signal_during_a_run_stops_the_watch_and_undoes_the_run(
    project: Run, signum: int, exit_code: int
) -> None:
    from mcpgen.write.journal import JOURNAL_PATH

    before = snapshot_tree(project.root)
    watcher = WatchProcess(project.root, env={DELAY_ENV: "0.2"})
    try:
        watcher.wait_printed("Watching")
        project.edit_manifest("tools:\n", PING)
        watcher.wait_until((project.root / JOURNAL_PATH).is_file, "the run's journal")
        watcher.process.send_signal(signum)
        returncode = watcher.process.wait(timeout=PROCESS_TIMEOUT)
    finally:
        watcher.stop()
    assert returncode == exit_code, watcher.printed
    assert "every change was undone" in watcher.printed
    assert watcher.printed.rstrip().endswith("Stopped watching.")
    assert "Traceback" not in watcher.printed
    manifest = (project.root / "mcpgen.yaml").read_bytes()
    assert snapshot_tree(project.root) == {**before, "mcpgen.yaml": manifest}


def test_a_resource_embedding_a_generated_file_does_not_regenerate_forever(project: Run) -> None:
    # The catalog table embeds the resource's bytes: embedding the table itself changes it on
    # every run, which must not count as a save.
    data = project.root / "data/settings.json"
    data.parent.mkdir()
    data.write_text('{"units": "metric"}\n')
    project.manifest(project.root.joinpath("mcpgen.yaml").read_text() + RESOURCE)
    project()
    with watch_process(project.root) as watcher:
        project.edit_manifest("data/settings.json", "src/demo/_generated/catalog_table.py")
        watcher.wait_printed("Wrote ")
        project.edit_manifest("tools:\n", PING)  # a real save: one more run
        watcher.wait_until((project.root / HANDLERS / "ping.py").is_file, "the ping handler")
        watcher.wait_printed("Wrote ", count=2)
        # The run's own write of the table would start the next run within a tick or two.
        settle = time.monotonic() + 3
        while time.monotonic() < settle:
            assert watcher.printed.count("─ saved ─") == 2, watcher.printed
            time.sleep(0.05)
    watched = embedded_files(project.root, project.root / "mcpgen.yaml")
    assert watched == [project.root / "mcpgen.yaml"]


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv"
)
def test_a_checkout_it_cannot_write_is_an_error_not_a_wait() -> None:
    # Another user's checkout never becomes free: its lock refusal is said as an error, and
    # the watch keeps going for the next save instead of waiting for a lock that cannot come.
    base = Path(tempfile.mkdtemp(prefix="mcpgen-watch-owned-"))
    try:
        base.chmod(0o755)
        root = base / "demo"
        root.mkdir()
        (root / "mcpgen.yaml").write_text(PING.join(["name: demo\nversion: 0.1.0\n", ""]))
        caps = ["--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
        user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *caps]
        watcher = WatchProcess(root, prefix=[*user, "env", "HOME=/nonexistent"])
        try:
            watcher.wait_printed("Watching")
            watcher.wait_printed("Permission denied")
        finally:
            returncode = watcher.stop()
        assert returncode == 0, watcher.printed
        assert "once it is free" not in watcher.printed
        assert "Traceback" not in watcher.printed
    finally:
        shutil.rmtree(base)
