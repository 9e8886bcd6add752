"""Server-speed benchmark: generated servers vs hand-written SDK servers (and TypeScript).

The Python servers run from one venv (`benchmarks/.work/venv`); all are driven by the same
raw JSON-RPC client (stdio: write a line, read lines; HTTP: httpx2), so client overhead is
equal. Rounds are interleaved (A B C, then C B A, ...) and ratios are paired within a round.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "benchmarks"
SERVERS = BENCH / "servers"
WORK = BENCH / ".work"
NODE = WORK / "node"
BIG = WORK / "bench200"
BIG_TOOLS = 200
VENV = WORK / "venv"
WEATHER = WORK / "weather"
LOGS = WORK / "logs"
VENV_PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
BASE_REQUIREMENTS = ["mcp==2.3.0", "regress"]

HANDSHAKE_VERSION = "2025-11-25"
HTTP_PORT = 18730  # the generated server; the references take the next ports
FORECAST_ARGS = {"city": "Paris", "days": 3}
ALERTS_ARGS = {"state": "TX", "min_severity": "minor"}


# --- setup -------------------------------------------------------------------------------


def make_weather(mcpgen_python: str) -> None:
    """A fresh `mcpgen new weather` (so the figures always reflect the current templates)."""
    shutil.rmtree(WEATHER, ignore_errors=True)
    done = subprocess.run(
        [
            mcpgen_python,
            "-m",
            "mcpgen",
            "new",
            "weather",
            "--dir",
            str(WEATHER),
            "--no-input",
            "--no-git",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"mcpgen new weather failed:\n{done.stdout}\n{done.stderr}")


def requirements() -> list[str]:
    """mcp 2.3.0 + regress + the generated project's own dependencies (mcp pinned)."""
    project = tomllib.loads((WEATHER / "pyproject.toml").read_text(encoding="utf-8"))
    deps = project["project"]["dependencies"]
    deps = [d for d in deps if not d.replace(" ", "").startswith("mcp")]
    return BASE_REQUIREMENTS + sorted(deps)


def ensure_venv(base_python: str) -> None:
    """Create `.work/venv` once; re-create it when the requirement list changes."""
    wanted = "\n".join(requirements()) + "\n"
    stamp = VENV / "bench-requirements.txt"
    if VENV_PYTHON.exists() and stamp.exists() and stamp.read_text() == wanted:
        return
    shutil.rmtree(VENV, ignore_errors=True)
    print(f"creating {VENV.relative_to(REPO)} ({', '.join(requirements())}) ...", file=sys.stderr)
    subprocess.run([base_python, "-m", "venv", str(VENV)], check=True)
    done = subprocess.run(
        [
            str(VENV_PYTHON),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            *requirements(),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"pip install failed:\n{done.stdout}\n{done.stderr}")
    stamp.write_text(wanted)


def venv_version(package: str) -> str:
    done = subprocess.run(
        [str(VENV_PYTHON), "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@dataclass(frozen=True)
class ServerCmd:
    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)

    def full_env(self) -> dict[str, str]:
        # Without PYTHONDONTWRITEBYTECODE: the uncounted warm-up writes the `.pyc` files, as
        # the first start of an installed server does; a start that compiles every module
        # measures the compiler (150 ms for the 200-tool table alone), not the server.
        dropped = ("PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE")
        env = {k: v for k, v in os.environ.items() if k not in dropped}
        env.update(self.env)
        return env


def make_big_project(mcpgen_python: str) -> list[dict[str, Any]]:
    """A project generated from a 200-real-tool manifest, and its tool list as JSON."""
    import gen_bench

    shutil.rmtree(BIG, ignore_errors=True)
    _, tools = gen_bench.write_manifest(BIG, BIG_TOOLS)
    done = subprocess.run(
        [mcpgen_python, "-m", "mcpgen", "generate", str(BIG)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"mcpgen generate ({BIG_TOOLS} tools) failed:\n{done.stdout}\n{done.stderr}"
        )
    (BIG / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
    return tools


def first_tool_without_arguments(tools: list[dict[str, Any]]) -> str:
    """A tool of the 200 whose arguments may be empty: its first call needs no made-up values."""
    for tool in tools:
        if not tool["inputSchema"].get("required"):
            return str(tool["name"])
    raise SystemExit(f"no tool without required arguments in the {BIG_TOOLS}-tool manifest")


def ensure_node() -> str | None:
    """`npm install @modelcontextprotocol/sdk zod` into .work/node once; why not, if it fails."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return "node/npm not found"
    NODE.mkdir(parents=True, exist_ok=True)
    if not (NODE / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        (NODE / "package.json").write_text('{"private": true, "type": "module"}\n')
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "@modelcontextprotocol/sdk", "zod"],
            cwd=NODE,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        if done.returncode != 0:
            return f"npm install failed: {done.stderr.strip()[-200:]}"
    shutil.copy(SERVERS / "ts_weather.mjs", NODE / "ts_weather.mjs")
    return None


def node_sdk_version() -> str:
    package = NODE / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"
    return str(json.loads(package.read_text())["version"])


def weather_servers(with_node: bool) -> dict[str, ServerCmd]:
    py = str(VENV_PYTHON)
    cmds = {
        "generated": ServerCmd(
            "generated", [py, "-m", "weather"], {"PYTHONPATH": str(WEATHER / "src")}
        ),
        "lowlevel": ServerCmd("lowlevel", [py, str(SERVERS / "lowlevel_weather.py")]),
        "mcpserver": ServerCmd("mcpserver", [py, str(SERVERS / "mcpserver_weather.py")]),
    }
    if with_node:
        node = shutil.which("node") or "node"
        cmds["typescript"] = ServerCmd("typescript", [node, str(NODE / "ts_weather.mjs")])
    return cmds


def big_servers() -> dict[str, ServerCmd]:
    py = str(VENV_PYTHON)
    tools = str(BIG / "tools.json")
    return {
        "generated": ServerCmd(
            "generated200", [py, "-m", f"bench{BIG_TOOLS}"], {"PYTHONPATH": str(BIG / "src")}
        ),
        "lowlevel": ServerCmd(
            "lowlevel200", [py, str(SERVERS / "lowlevel_weather.py"), "--tools", tools]
        ),
    }


def http_servers(port: int) -> dict[str, dict[str, ServerCmd]]:
    """Per HTTP mode, the servers that have it (the generated one: only what its CLI offers)."""
    py = str(VENV_PYTHON)
    weather = {"PYTHONPATH": str(WEATHER / "src")}
    help_text = subprocess.run(
        [py, "-m", "weather", "--help"],
        env={**os.environ, **weather},
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    generated_flags = {"stateful": [], "stateless": ["--stateless"], "json": ["--json-response"]}
    reference_flags = {"stateful": [], "stateless": ["--stateless"], "json": ["--json"]}
    modes: dict[str, dict[str, ServerCmd]] = {}
    for mode in ("stateful", "stateless", "json"):
        cmds: dict[str, ServerCmd] = {}
        if all(flag in help_text for flag in generated_flags[mode]):
            argv = [py, "-m", "weather", "--transport", "http", "--port", str(port)]
            cmds["generated"] = ServerCmd(
                f"http-{mode}-generated", argv + generated_flags[mode], weather
            )
        for offset, name in enumerate(("lowlevel", "mcpserver"), start=1):
            script = str(SERVERS / f"{name}_weather.py")
            argv = [py, script, "--http", str(port + offset), *reference_flags[mode]]
            cmds[name] = ServerCmd(f"http-{mode}-{name}", argv)
        modes[mode] = cmds
    return modes


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --- raw JSON-RPC client -------------------------------------------------------------------


class RawSession:
    """A server subprocess spoken to one JSON line at a time."""

    def __init__(self, cmd: ServerCmd) -> None:
        LOGS.mkdir(parents=True, exist_ok=True)
        self._log = open(LOGS / f"{cmd.name}.stderr.log", "ab")
        self.proc = subprocess.Popen(
            cmd.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=cmd.full_env(),
            cwd=WORK,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in: IO[bytes] = self.proc.stdin
        self._out: IO[bytes] = self.proc.stdout
        self._next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        self._in.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        self._in.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._next_id += 1
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        while True:
            line = self._out.readline()
            if not line:
                raise RuntimeError(f"server closed stdout during {method} (see {LOGS})")
            message = json.loads(line)
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message["result"]
                return result

    def pipelined(self, tool: str, arguments: dict[str, Any], total: int, depth: int) -> None:
        """`total` calls, `depth` of them in flight at any time (a new one per answer)."""
        sent = answered = 0
        first = self._next_id + 1
        params = {"name": tool, "arguments": arguments}
        while sent < min(depth, total):
            sent += 1
            self._send_call(first + sent - 1, params)
        while answered < total:
            line = self._out.readline()
            if not line:
                raise RuntimeError(f"server closed stdout (see {LOGS})")
            message = json.loads(line)
            if "id" not in message or "method" in message:
                continue
            if "error" in message or message["result"].get("isError"):
                raise RuntimeError(f"pipelined call failed: {message}")
            answered += 1
            if sent < total:
                sent += 1
                self._send_call(first + sent - 1, params)
        self._next_id = first + total - 1

    def _send_call(self, request_id: int, params: dict[str, Any]) -> None:
        message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
        self.send(message)

    def initialize(self) -> dict[str, Any]:
        result = self.request(
            "initialize",
            {
                "protocolVersion": HANDSHAKE_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "mcpgen-bench", "version": "0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def close(self) -> None:
        self._in.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._out.close()
        self._log.close()


def _order(names: list[str], i: int) -> list[str]:
    """Round i's order: rotated every round, so no server is always first or last."""
    shift = i % len(names)
    return names[shift:] + names[:shift]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def same_results(cmds: dict[str, ServerCmd]) -> None:
    """Every server must answer the benchmark calls with the same data (a fair comparison)."""
    sessions = {n: RawSession(c) for n, c in cmds.items()}
    try:
        answers = {}
        for name, session in sessions.items():
            session.initialize()
            forecast = session.call("get_forecast", FORECAST_ARGS)
            alerts = session.call("get_alerts", ALERTS_ARGS)
            if forecast.get("isError") or alerts.get("isError"):
                raise SystemExit(f"{name} server answered isError: {forecast} {alerts}")
            answers[name] = (forecast["structuredContent"], alerts["content"][0]["text"])
        first, *others = answers.values()
        if any(other != first for other in others):
            raise SystemExit(f"the servers disagree, the comparison is not fair: {answers}")
    finally:
        for session in sessions.values():
            session.close()


def cold_start(cmds: dict[str, ServerCmd], reps: int) -> dict[str, list[float]]:
    """Seconds from Popen to the tools/list answer, interleaved, after one warm-up each."""
    names = list(cmds)
    times: dict[str, list[float]] = {n: [] for n in names}
    for i in range(reps + 1):
        for name in _order(names, i):
            start = time.perf_counter()
            session = RawSession(cmds[name])
            session.initialize()
            session.request("tools/list", {})
            elapsed = time.perf_counter() - start
            session.close()
            if i:  # run 0 writes .pyc files and warms the page cache
                times[name].append(elapsed)
    return times


# Seconds a server is left alone after tools/list before its RSS is read: the generated one
# answers tools/list before it has loaded the SDK, which it does right after.
SETTLE_SECONDS = 2.0


def idle_rss(cmd: ServerCmd) -> float:
    """Peak RSS (MB) of a server that answered initialize and tools/list, and settled."""
    session = RawSession(cmd)
    try:
        session.initialize()
        session.request("tools/list", {})
        time.sleep(SETTLE_SECONDS)
        return peak_rss_mb(session.proc.pid)
    finally:
        session.close()


def load(cmds: dict[str, ServerCmd], rounds: int, calls: int, piped: int) -> dict[str, Any]:
    """One session per server; per round, in rotated order: `calls` sequential get_forecast
    calls (latencies, calls/s), then `piped` calls kept 32 in flight (calls/s); server CPU
    per call over both; peak RSS at the end."""
    sessions = {n: RawSession(c) for n, c in cmds.items()}
    out: dict[str, dict[str, list[float]]] = {
        n: {"latency_ms": [], "p50_ms": [], "p99_ms": [], "rate1": [], "rate32": [], "cpu_us": []}
        for n in sessions
    }
    try:
        for session in sessions.values():
            session.initialize()
            for _ in range(30):  # warm-up: first-call paths, caches
                session.call("get_forecast", FORECAST_ARGS)
        for i in range(rounds):
            for name in _order(list(sessions), i):
                session, figures = sessions[name], out[name]
                cpu = cpu_seconds(session.proc.pid)
                latencies = []
                start = time.perf_counter()
                for _ in range(calls):
                    sent = time.perf_counter()
                    session.call("get_forecast", FORECAST_ARGS)
                    latencies.append((time.perf_counter() - sent) * 1000)
                figures["rate1"].append(calls / (time.perf_counter() - start))
                start = time.perf_counter()
                session.pipelined("get_forecast", FORECAST_ARGS, piped, depth=32)
                figures["rate32"].append(piped / (time.perf_counter() - start))
                used = cpu_seconds(session.proc.pid) - cpu
                figures["cpu_us"].append(used / (calls + piped) * 1e6)
                figures["p50_ms"].append(statistics.median(latencies))
                figures["p99_ms"].append(_percentile(latencies, 0.99))
        result: dict[str, Any] = {name: dict(figures) for name, figures in out.items()}
        for name, session in sessions.items():
            result[name]["rss_mb"] = peak_rss_mb(session.proc.pid)
        return result
    finally:
        for session in sessions.values():
            session.close()


# --- HTTP -----------------------------------------------------------------------------------


class HttpSession:
    """Streamable HTTP at 127.0.0.1:PORT/mcp, spoken to with httpx2 (JSON or SSE answers)."""

    def __init__(self, cmd: ServerCmd, port: int) -> None:
        LOGS.mkdir(parents=True, exist_ok=True)
        self._log = open(LOGS / f"{cmd.name}.stderr.log", "ab")
        self.proc = subprocess.Popen(
            cmd.argv,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            env=cmd.full_env(),
            cwd=WORK,
        )
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        self._next_id = 0

    async def wait_ready(self, client: Any) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"{self.proc.args} exited early (see {LOGS})")
            try:
                await self.initialize(client)
                return
            except Exception:
                await asyncio.sleep(0.1)
        raise SystemExit(f"{self.proc.args} did not answer over HTTP in 60 s")

    async def post(self, client: Any, message: dict[str, Any]) -> Any:
        response = await client.post(self.url, json=message, headers=self.headers)
        if "mcp-session-id" in response.headers:
            self.headers["Mcp-Session-Id"] = response.headers["mcp-session-id"]
        if "id" not in message:
            return None
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            for line in response.text.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    answer = json.loads(line[5:])
                    if answer.get("id") == message["id"]:
                        return answer
            raise RuntimeError(f"no answer in the event stream: {response.text[:200]}")
        return response.json()

    async def initialize(self, client: Any) -> None:
        params = {
            "protocolVersion": HANDSHAKE_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "mcpgen-bench", "version": "0"},
        }
        await self.post(
            client, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}
        )
        self.headers["MCP-Protocol-Version"] = HANDSHAKE_VERSION
        await self.post(client, {"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def call(self, client: Any) -> None:
        self._next_id += 1
        params = {"name": "get_forecast", "arguments": FORECAST_ARGS}
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": "tools/call", "params": params}
        answer = await self.post(client, message)
        if "result" not in answer or answer["result"].get("isError"):
            raise RuntimeError(f"HTTP call failed: {answer}")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


async def _http_load(
    cmds: dict[str, ServerCmd], ports: dict[str, int], rounds: int, calls: int, piped: int
) -> dict[str, Any]:
    import httpx2

    sessions = {n: HttpSession(c, ports[n]) for n, c in cmds.items()}
    out = {n: {"rate1": [], "rate32": [], "cpu_us": []} for n in sessions}
    limits = httpx2.Limits(max_connections=32, max_keepalive_connections=32)
    try:
        async with httpx2.AsyncClient(timeout=60, limits=limits) as client:
            for session in sessions.values():
                await session.wait_ready(client)
                for _ in range(20):
                    await session.call(client)
            for i in range(rounds):
                for name in _order(list(sessions), i):
                    session, figures = sessions[name], out[name]
                    cpu = cpu_seconds(session.proc.pid)
                    start = time.perf_counter()
                    for _ in range(calls):
                        await session.call(client)
                    figures["rate1"].append(calls / (time.perf_counter() - start))
                    start = time.perf_counter()
                    gate = asyncio.Semaphore(32)

                    async def one(
                        session: HttpSession = session, gate: asyncio.Semaphore = gate
                    ) -> None:
                        async with gate:
                            await session.call(client)

                    await asyncio.gather(*(one() for _ in range(piped)))
                    figures["rate32"].append(piped / (time.perf_counter() - start))
                    used = cpu_seconds(session.proc.pid) - cpu
                    figures["cpu_us"].append(used / (calls + piped) * 1e6)
        result: dict[str, Any] = {n: dict(f) for n, f in out.items()}
        for name, session in sessions.items():
            result[name]["rss_mb"] = peak_rss_mb(session.proc.pid)
        return result
    finally:
        for session in sessions.values():
            session.close()


def http_load(rounds: int, calls: int, piped: int) -> dict[str, Any]:
    """Per HTTP mode, the load figures of the servers that offer it."""
    results: dict[str, Any] = {}
    for mode, cmds in http_servers(HTTP_PORT).items():
        ports = {
            n: HTTP_PORT + offset for offset, n in enumerate(("generated", "lowlevel", "mcpserver"))
        }
        results[mode] = asyncio.run(_http_load(cmds, ports, rounds, calls, piped))
    return results
