"""`mcpgen dev`: the project's server over Streamable HTTP, restarted on every change.

What is watched, and what a change there asks for:

- `mcpgen.yaml` (and the files its resources embed, as `generate --watch` watches them) and
  anything under `openapi/` (imported specs): generate, then restart when it succeeded; a
  broken manifest keeps the running server.
- any `.py` under `src/`: restart. The files `generate` writes (the state file lists them,
  `_generated/` and `_runtime/` hold them) are not watched, so a generate does not restart
  the server a second time, nor loop.

The server runs from the project's own venv, as `mcpgen call` runs it, in mcpgen's process
group, so a Ctrl-C at the terminal reaches both; mcpgen then stops it and waits for it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import subprocess
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mcpgen.commands.call import project_python
from mcpgen.errors import McpgenError
from mcpgen.generation.watch import _generated_files
from mcpgen.manifest.model import Manifest

HOST = "127.0.0.1"
OPENAPI_FOLDER = "openapi"
# Folders of the package that generate owns: their files change only when it runs.
_GENERATED_FOLDERS = ("_generated", "_runtime")
START_TIMEOUT = 30.0  # seconds a fresh server may take to listen
STOP_TIMEOUT = 5.0  # seconds a server may take to stop before it is killed

Change = Literal["manifest", "source"]


def url_of(port: int) -> str:
    """The server's MCP endpoint."""
    return f"http://{HOST}:{port}/mcp"


def inspector_command(port: int) -> str:
    """The MCP Inspector, connected to the server at `port`."""
    return f"npx @modelcontextprotocol/inspector --transport http --server-url {url_of(port)}"


def ensure_port_free(port: int) -> None:
    """McpgenError when something already listens on `port` (mcpgen dev would not be heard)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((HOST, port))
        except OSError as exc:
            raise McpgenError(
                f"port {port} on {HOST} is busy ({exc.strerror or exc}): stop what uses it, "
                "or pass another --port"
            ) from None


class _ExitedEarly(Exception):
    """The server process ended before it listened."""


# A server process that has imported the SDK and its web stack (about a second of a start,
# the project's own code a few milliseconds), then waits for its command line on stdin: run
# as `python -m PACKAGE ARGS...`. The project is imported only then, so it is never stale.
_WARM_START = """\
import json, runpy, sys
try:
    for name in (
        "pydantic", "anyio", "starlette.applications", "uvicorn", "mcp",
        "mcp.server", "mcp.server.streamable_http_manager", "mcp.shared.exceptions",
    ):
        try:
            __import__(name)
        except Exception:
            pass
    line = sys.stdin.readline()
    if not line.strip():
        raise SystemExit(0)
    argv = json.loads(line)
    sys.stdin.close()
    sys.argv = argv
    runpy.run_module(argv[0], run_name="__main__", alter_sys=True)
except KeyboardInterrupt:
    raise SystemExit(130) from None
"""


class ServerProcess:
    """The project's server over HTTP, one process at a time, started anew on each restart.

    The next process is started ahead, and waits with the SDK imported: a restart then costs
    the project's own imports, not the interpreter's and the SDK's."""

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.manifest: Manifest | None = None  # what the running server was generated from
        self.process: subprocess.Popen[bytes] | None = None
        self.spare: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0  # time.time() when the running server was told to start

    def restart(self, manifest: Manifest) -> None:
        """Serve `manifest`'s project; McpgenError when the server does not come up.

        The running server is asked to stop, and the spare told to start as soon as the old
        one has closed its listening socket (it drains its requests meanwhile): the port is
        then free for the new one, and what answers on it is the new one. The next spare
        starts importing once the new server listens. A new server that found the port
        still taken (an old one slow to let go) is started once more, alone."""
        self.manifest = manifest
        previous = self.process
        if previous is not None and previous.poll() is None:
            previous.terminate()
            self._wait_port_closed(previous)
        self.started_at = time.time()
        self.process = self._spawn()
        if previous is not None:
            _stop(previous)
        try:
            self._wait_listening()
        except _ExitedEarly as exc:
            if previous is None:
                raise McpgenError(str(exc)) from None
            self.process = self._spawn()
            try:
                self._wait_listening()
            except _ExitedEarly as again:
                raise McpgenError(str(again)) from None
        self.spare = self._warm()  # once the server listens: not to slow its start down

    def _wait_port_closed(self, previous: subprocess.Popen[bytes]) -> None:
        """Until nothing accepts connections on the port (or the old server has gone)."""
        deadline = time.monotonic() + STOP_TIMEOUT
        while time.monotonic() < deadline and previous.poll() is None:
            try:
                with socket.create_connection((HOST, self.port), 0.2):
                    pass
            except OSError:
                return
            time.sleep(0.01)

    def _warm(self) -> subprocess.Popen[bytes]:
        python, env = project_python(self.root)
        return subprocess.Popen(
            [python, "-c", _WARM_START], cwd=self.root, env=env, stdin=subprocess.PIPE
        )

    def _spawn(self) -> subprocess.Popen[bytes]:
        """The spare process told to run the server now (a fresh one when there is none)."""
        assert self.manifest is not None
        process, self.spare = self.spare, None
        if process is None or process.poll() is not None:
            process = self._warm()
        argv = [self.manifest.package, "--transport", "http", "--host", HOST]
        line = json.dumps([*argv, "--port", str(self.port)]) + "\n"
        assert process.stdin is not None
        try:
            process.stdin.write(line.encode())
            process.stdin.close()
        except OSError:  # the spare died meanwhile (its interpreter was removed?): a fresh one
            _stop(process)
            return self._spawn()
        return process

    def _wait_listening(self) -> None:
        process = self.process
        assert process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if process.poll() is not None:
                self.process = None
                raise _ExitedEarly(f"the server exited with {process.returncode} before listening")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 0.2):
                return
            time.sleep(0.02)
        self.stop()
        raise McpgenError(f"the server did not listen on port {self.port} in {START_TIMEOUT:g} s")

    def stop(self) -> None:
        """Stop the running server and the spare, and reap them."""
        for process in (self.spare, self.process):
            if process is not None:
                _stop(process)
        self.process = self.spare = None

    def exited(self) -> int | None:
        """The exit code of a server that ended by itself since the last look, once."""
        process = self.process
        if process is None or process.poll() is None:
            return None
        self.process = None
        return process.returncode

    @property
    def pid(self) -> int | None:
        """The running server's process id."""
        return self.process.pid if self.process is not None else None


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (the server drains its requests), then SIGKILL after STOP_TIMEOUT; reaped."""
    if process.stdin is not None and not process.stdin.closed:
        with contextlib.suppress(OSError):
            process.stdin.close()  # a spare waiting for its command line ends at once
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@dataclass(frozen=True)
class SourceFilter:
    """Which changed paths under `src/` and `openapi/` count, and as what."""

    root: Path
    generated: frozenset[str]  # project-relative paths generate wrote last

    def classify(self, path: str) -> Change | None:
        """`manifest` for an imported spec, `source` for a hand-written `.py`, else None."""
        try:
            relative = Path(os.path.abspath(path)).relative_to(os.path.abspath(self.root))
        except ValueError:
            return None
        parts = relative.parts
        if parts[:1] == (OPENAPI_FOLDER,):
            return "manifest"
        if parts[:1] != ("src",) or relative.suffix != ".py":
            return None
        if relative.as_posix() in self.generated or any(
            part in _GENERATED_FOLDERS or part == "__pycache__" for part in parts
        ):
            return None
        return "source"


@dataclass
class _Watcher:
    """One watching thread, what it watches, and how to stop it."""

    watches: object  # compared after each generate: a new watcher when it differs
    stop_event: threading.Event
    thread: threading.Thread

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(2.0)


class ChangeFeed:
    """Watchers of the project in background threads, feeding one queue of changes.

    The manifest's folder is watched alone (not recursively: it holds `.venv` and `.git`),
    for the manifest and the files its resources embed; `src/` and `openapi/` are watched
    recursively. After each generate the watched files and folders are looked at again (a
    resource `file:` added, an `openapi/` folder an import made) and a watcher made anew for
    them when they changed."""

    def __init__(self, root: Path, manifest: Path) -> None:
        self.root, self.manifest = root, manifest
        # Each change with the file it was seen on (None: the manifest's watch names none).
        self.changes: queue.Queue[tuple[Change, str | None]] = queue.Queue()
        self.watchers: dict[str, _Watcher] = {}
        self.source_filter = SourceFilter(root, _generated_files(root))

    def start(self) -> None:
        """Start the watchers; each is live when this returns."""
        self.refresh_generated()

    def _manifest_files(self) -> object:
        from mcpgen.generation.watch import WatchedFiles, embedded_files

        return WatchedFiles.of(embedded_files(self.root, self.manifest))

    def _tree_folders(self) -> tuple[Path, ...]:
        folders = (self.root / "src", self.root / OPENAPI_FOLDER)
        return tuple(folder for folder in folders if folder.is_dir())

    def _ensure(self, key: str, watches: object) -> None:
        """A watcher `key` of `watches`, made anew if it watched something else."""
        current = self.watchers.get(key)
        if current is not None and current.watches == watches:
            return
        if current is not None:
            current.stop()
        stop_event, ready = threading.Event(), threading.Event()
        target = self._watch_manifest if key == "manifest" else self._watch_tree
        thread = threading.Thread(
            target=target, args=(watches, stop_event, ready), name=f"mcpgen-dev-{key}", daemon=True
        )
        thread.start()
        ready.wait(5.0)
        self.watchers[key] = _Watcher(watches, stop_event, thread)

    def _watch_manifest(
        self, watched: object, stop_event: threading.Event, ready: threading.Event
    ) -> None:
        from mcpgen.generation.watch import WatchedFiles, saves

        assert isinstance(watched, WatchedFiles)
        for index, saved in enumerate(saves(watched, stop_event)):
            if index == 0:
                ready.set()
            if saved:
                self.changes.put(("manifest", None))

    def _watch_tree(
        self, folders: object, stop_event: threading.Event, ready: threading.Event
    ) -> None:
        import watchfiles

        assert isinstance(folders, tuple)
        if not folders:
            ready.set()
            return

        def counts(_change: object, path: str) -> bool:
            return self.source_filter.classify(path) is not None

        events = watchfiles.watch(
            *folders,
            watch_filter=counts,
            stop_event=stop_event,
            rust_timeout=100,
            yield_on_timeout=True,
            debounce=200,
            step=20,
        )
        for batch in events:
            ready.set()
            for _, path in batch:
                kind = self.source_filter.classify(path)
                if kind is not None:
                    self.changes.put((kind, path))

    def refresh_generated(self) -> None:
        """After a generate: its files are the ones to ignore now, and the watched files and
        folders are the ones there are now."""
        self.source_filter = SourceFilter(self.root, _generated_files(self.root))
        self._ensure("manifest", self._manifest_files())
        self._ensure("tree", self._tree_folders())

    def next_batch(self, timeout: float, since: float = 0.0) -> set[Change]:
        """The changes seen within `timeout` seconds (empty when none), all queued ones.

        A file last written before `since` (a time.time()) is one the running server already
        read when it started: the change it reports is spent (the handler stub, say, that
        the generate before that start wrote)."""
        deadline = time.monotonic() + timeout
        found: set[Change] = set()
        while not found:
            left = deadline - time.monotonic()
            try:
                first = self.changes.get(timeout=left) if left > 0 else self.changes.get_nowait()
            except queue.Empty:
                return found
            pending = [first]
            with contextlib.suppress(queue.Empty):
                while True:
                    pending.append(self.changes.get_nowait())
            found = {kind for kind, path in pending if not _seen_before(path, since)}
        return found

    def stop(self) -> None:
        """Stop every watcher and wait for its thread."""
        for watcher in self.watchers.values():
            watcher.stop_event.set()
        for watcher in self.watchers.values():
            watcher.thread.join(2.0)


# What a generate that renders imports, and one answered from the run record does not: read
# ahead in the background, so the first save of the manifest regenerates as fast as the next.
_GENERATE_MODULES = (
    "mcpgen.manifest.validate",
    "mcpgen.generation.engine",
    "mcpgen.models.codegen",
    "mcpgen.render.plan",
    "mcpgen.write.apply",
)


def warm_up_generate() -> threading.Thread:
    """Import what a full generate needs, in a background thread."""
    import importlib

    def load() -> None:
        for name in _GENERATE_MODULES:
            with contextlib.suppress(ImportError):
                importlib.import_module(name)

    thread = threading.Thread(target=load, name="mcpgen-dev-warm-up", daemon=True)
    thread.start()
    return thread


def _seen_before(path: str | None, since: float) -> bool:
    if path is None:
        return False
    try:
        return os.stat(path).st_mtime < since
    except OSError:  # removed: a change the server has not seen
        return False


def describe(changes: Iterable[Change]) -> str:
    """What changed, in a few words, for the line printed before a restart."""
    words = {"manifest": "the manifest or an imported spec", "source": "the source"}
    return " and ".join(words[c] for c in sorted(changes))
