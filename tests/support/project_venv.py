"""Shared machinery of the end-to-end tests: the real CLI, a real venv, real server processes."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.support.corpus import manifest_files, real_files
from tests.support.once import once
from tests.support.sweep import full_run

REPO = Path(__file__).resolve().parents[2]

# What a generated project needs at run and test time (its pyproject's dependencies and
# `test` extra), installed once per session; hatchling lets projects install without isolation.
PROJECT_REQUIREMENTS = (
    "mcp==2.3.0",
    "pydantic>=2.12,<3",
    "jsonschema>=4.23,<5",
    "jsonschema-rs>=0.61,<1",
    "regress>=2024.11",
    "google-re2>=1.1",
    "anyio>=4.5",
    "uvicorn>=0.30",
    "pytest>=8",
    "ruamel.yaml>=0.18",
    "hatchling>=1.25",
    "types-jsonschema",
    "hypothesis>=6.100,<6.170.10",
    "hypothesis-jsonschema>=0.23",
)


def run_mcpgen(
    *args: str, cwd: Path | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run the real `mcpgen` CLI in a subprocess."""
    done = subprocess.run(
        [sys.executable, "-m", "mcpgen", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if check and done.returncode != 0:
        raise AssertionError(
            f"mcpgen {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return done


@dataclass(frozen=True)
class ProjectVenv:
    """A real virtual environment that generated projects are installed into and run from.

    `mypy_cache`, when set, is where mypy keeps what it learnt of the venv's packages (mcp,
    pydantic, ...) between projects: one process's own folder, as mypy's cache is not shared
    between processes running at once."""

    root: Path
    mypy_cache: Path | None = None

    @property
    def bin(self) -> Path:
        return self.root / ("Scripts" if os.name == "nt" else "bin")

    @property
    def python(self) -> Path:
        return self.bin / ("python.exe" if os.name == "nt" else "python")

    def pip(self, *args: str) -> None:
        subprocess.run(
            [str(self.python), "-m", "pip", "--disable-pip-version-check", "-q", *args],
            check=True,
            timeout=900,
            capture_output=True,
        )

    def install(self, project: Path) -> None:
        """Install a generated project (its dependencies are already in the venv)."""
        self.pip("install", "--no-deps", "--no-build-isolation", "--force-reinstall", str(project))

    def pytest(
        self, project: Path, *args: str, with_src: bool = False
    ) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ)
        if with_src:
            env["PYTHONPATH"] = str(project / "src")
        if not full_run():
            # The project's own verdict property test draws 10 arguments per tool by default;
            # three keep it a real check where a scenario is about something else (the
            # verdicts themselves are swept in tests/differential, and here in a full run).
            env.setdefault("MCPGEN_VERDICT_EXAMPLES", "3")
        return subprocess.run(
            [str(self.python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )


def _requirements_key() -> str:
    text = "\n".join((sys.version, *PROJECT_REQUIREMENTS))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def shared_venv() -> ProjectVenv:
    """The session's project venv, made once (by one worker) and reused while the
    requirements stay the same."""
    base = Path(os.environ.get("MCPGEN_TEST_VENVS", REPO / ".test-venvs"))
    base.mkdir(parents=True, exist_ok=True)
    target = ProjectVenv(base / f"projects-{_requirements_key()}")

    def make() -> None:
        venv.EnvBuilder(with_pip=True, clear=True).create(target.root)
        target.pip("install", *PROJECT_REQUIREMENTS)

    once(target.root / ".ready", make, lock=base / ".lock")  # make() clears target.root
    return target


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"server exited with {process.returncode} before listening")
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", port), timeout=0.5),
        ):
            return
        time.sleep(0.1)
    raise AssertionError(f"nothing listened on port {port} within {timeout} s")


@contextlib.contextmanager
def http_server(command: list[str], port: int, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run a server process serving Streamable HTTP on 127.0.0.1:PORT; yield its /mcp URL."""
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def corpus_manifests() -> list[tuple[str, Path]]:
    """(id, manifest path or tools.json path) for every corpus input."""
    return [(p.stem, p) for p in [*real_files(), *manifest_files()]]


def write_manifest_for(source: Path, destination: Path) -> Path:
    """A manifest file for a corpus input: a real tools array becomes `{name, version, tools}`.

    JSON is YAML 1.2, so the tools array goes in exactly as the server published it.
    """
    destination.parent.mkdir(parents=True, exist_ok=True)
    if source.suffix == ".json":
        tools = json.loads(source.read_text(encoding="utf-8"))
        document = {"name": source.stem, "version": "1.0.0", "tools": tools}
        destination.write_text(
            json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    else:
        destination.write_bytes(source.read_bytes())
    return destination


def raw_tools_list(
    command: list[str], env: dict[str, str], protocol: str = "2025-11-25"
) -> list[dict[str, object]]:
    """tools/list over raw stdio JSON-RPC, so the answer is read exactly as it went on the wire
    (the SDK's client models drop keys MCP does not define)."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": protocol,
                "capabilities": {},
                "clientInfo": {"name": "mcpgen-tests", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    with subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            for request in requests:
                process.stdin.write(json.dumps(request) + "\n")
                process.stdin.flush()
            for line in process.stdout:
                message = json.loads(line)
                if message.get("id") == 2:
                    tools: list[dict[str, object]] = message["result"]["tools"]
                    return tools
            raise AssertionError("the server closed stdout before answering tools/list")
        finally:
            process.stdin.close()
            process.terminate()


def assert_lint_clean(root: Path, venv_: ProjectVenv, *, types: bool = True) -> None:
    """`ruff check` and (unless `types` is false) `mypy --strict` pass on a generated project;
    mypy resolves the project's imports in the venv it is installed or run in."""
    ruff = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ruff.returncode == 0, ruff.stdout[-4000:] + ruff.stderr[-2000:]
    if not types:
        return
    cache = ["--cache-dir", str(venv_.mypy_cache)] if venv_.mypy_cache else []
    command = [sys.executable, "-m", "mypy", "--python-executable", str(venv_.python)]
    mypy = subprocess.run(
        [*command, *cache, "src", "tests"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert mypy.returncode == 0, mypy.stdout[-4000:] + mypy.stderr[-2000:]


def manifest_wire_tools(manifest: Path) -> list[dict[str, object]]:
    """The tools/list entries a manifest file describes, read with a plain YAML loader (not
    mcpgen's), keys in wire spelling."""
    from ruamel.yaml import YAML

    from mcpgen.manifest.model import SCHEMA_ALIASES, WIRE_KEYS

    document = YAML(typ="safe").load(manifest.read_text(encoding="utf-8"))
    tools = [{SCHEMA_ALIASES.get(k, k): v for k, v in t.items()} for t in document["tools"]]
    return [{k: t[k] for k in WIRE_KEYS if k in t} for t in tools]
