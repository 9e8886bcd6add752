"""`mcpgen dev` as a real process: a server over HTTP that follows every edit, survives a
broken manifest, and goes with mcpgen on Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.support.dev_project import MANIFEST, dev_project
from tests.support.project_venv import ProjectVenv, free_port

GREET = Path("src/devdemo/handlers/greet.py")


class Output:
    """Everything `mcpgen dev` and its server print, read as it comes."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self.changed = threading.Condition()
        assert process.stdout is not None
        self.reader = threading.Thread(target=self._read, args=(process.stdout,), daemon=True)
        self.reader.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()

    def wait_for(self, pattern: str, after: int = 0, timeout: float = 60) -> str:
        """The first line from index `after` matching `pattern`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                found = next((x for x in self.lines[after:] if re.search(pattern, x)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {pattern!r} in:\n" + "\n".join(self.lines))
                self.changed.wait(left)

    @property
    def text(self) -> str:
        with self.changed:
            return "\n".join(self.lines)


def call(url: str, tool: str, arguments: dict[str, Any]) -> Any:
    """One tools/call over Streamable HTTP with the real SDK client: its text or its error."""
    from mcp import Client

    async def run() -> Any:
        with anyio.fail_after(20):
            async with Client(url, read_timeout_seconds=20) as client:
                result = await client.call_tool(tool, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        return ("error", text) if result.is_error else text

    return anyio.run(run)


def call_until(url: str, tool: str, arguments: dict[str, Any], expected: Any) -> float:
    """Call until the answer is `expected`; the moment it was."""
    deadline = time.monotonic() + 30
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = call(url, tool, arguments)
        except Exception as exc:  # the server is restarting: not listening for a moment
            last = exc
        if last == expected:
            return time.monotonic()
        time.sleep(0.05)
    raise AssertionError(f"{tool} answered {last!r}, never {expected!r}")


def descendants(pid: int) -> set[int]:
    """The processes `pid` started, and theirs (the process table in /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not: it has exited, only its status is left)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.fixture
def dev(tmp_path: Path, project_venv: ProjectVenv) -> Iterator[tuple[Path, str, Any]]:
    root = dev_project(tmp_path / "devdemo", project_venv)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "mcpgen", "dev", str(root), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
    )
    output = Output(process)
    try:
        output.wait_for(r"^Watching ")
        yield root, f"http://127.0.0.1:{port}/mcp", (process, output, port)
    finally:
        left = descendants(process.pid)
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(sys.platform != "linux", reason="reads the process table in /proc")
def test_edits_a_broken_save_and_ctrl_c(dev: tuple[Path, str, Any]) -> None:
    root, url, (process, output, port) = dev
    assert f"Serving {url}" in output.text
    inspector = f"npx @modelcontextprotocol/inspector --transport http --server-url {url}"
    assert inspector in output.text
    assert call(url, "greet", {"name": "Ada"}) == "hello Ada"

    # A handler edited: the next answer is the new one.
    source = (root / GREET).read_text(encoding="utf-8")
    edited = time.monotonic()
    (root / GREET).write_text(source.replace("hello", "hi"), encoding="utf-8")
    answered = call_until(url, "greet", {"name": "Ada"}, "hi Ada")
    latency = answered - edited
    print(f"restart latency, handler edit → new answer: {latency:.2f} s")
    # 0.2 to 1 s on an idle machine (the next server waits with the SDK imported); the
    # bound leaves room for a CI machine running other tests at the same time.
    assert latency < 4.0, output.text

    # A broken manifest: the located error is printed, the last good server answers.
    mark = len(output.lines)
    (root / "mcpgen.yaml").write_text(MANIFEST + "  - name: [oops\n", encoding="utf-8")
    output.wait_for(r"mcpgen\.yaml:\d+:\d+: ", after=mark)
    output.wait_for("keeps answering with the last good manifest", after=mark)
    assert call(url, "greet", {"name": "Ada"}) == "hi Ada"

    # Fixed, with a new tool: generated, restarted, and the new tool answers.
    mark = len(output.lines)
    saved = time.monotonic()
    fixed = MANIFEST + "  - name: shout\n    input_schema: {type: object}\n"
    (root / "mcpgen.yaml").write_text(fixed, encoding="utf-8")
    output.wait_for(r"Restarted in", after=mark)
    stub = (
        "error",
        "Tool 'shout' is not implemented yet: write its handler in src/devdemo/handlers/shout.py",
    )
    answered = call_until(url, "shout", {}, stub)
    print(f"restart latency, manifest save → new tool answers: {answered - saved:.2f} s")
    print(next(x for x in output.lines[mark:] if x.startswith("Restarted in")))
    assert answered - saved < 6.0, output.text

    # Ctrl-C: exit 0, and no process it started left behind (the server, the spare).
    started = descendants(process.pid)
    assert len(started) >= 2, started
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=15) == 0, output.text
    assert [pid for pid in started if alive(pid)] == []
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))  # nothing listens there any more


def test_a_busy_port_is_one_clear_error(tmp_path: Path, project_venv: ProjectVenv) -> None:
    root = dev_project(tmp_path / "devdemo", project_venv)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "mcpgen", "dev", str(root), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 1
    assert f"error: port {port} on 127.0.0.1 is busy" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_its_venv_nothing_runs_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mcpgen", "dev", str(tmp_path), "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert "error: no .venv in " in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcpgen.yaml"]
