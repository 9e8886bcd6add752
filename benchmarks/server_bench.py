"""Server-speed benchmark: the generated weather server vs a hand-written `MCPServer` one.

Both run from the same venv (`benchmarks/.work/venv`) and are driven over stdio by the same
raw JSON-RPC client (write a line, read a line), so client overhead is equal and small.
`python server_bench.py sdk-client ...` is the SDK `Client` variant, run inside that venv.
"""

from __future__ import annotations

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
WORK = BENCH / ".work"
VENV = WORK / "venv"
WEATHER = WORK / "weather"
LOGS = WORK / "logs"
VENV_PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
BASE_REQUIREMENTS = ["mcp==2.3.0", "regress"]

HANDSHAKE_VERSION = "2025-11-25"
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
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env.update(self.env)
        return env


def servers() -> dict[str, ServerCmd]:
    py = str(VENV_PYTHON)
    return {
        "generated": ServerCmd(
            "generated", [py, "-m", "weather"], {"PYTHONPATH": str(WEATHER / "src")}
        ),
        "handwritten": ServerCmd("handwritten", [py, str(BENCH / "handwritten_weather.py")]),
    }


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
    return names if i % 2 == 0 else names[::-1]


def summary(samples: dict[str, list[float]]) -> dict[str, Any]:
    """Medians per server, plus generated/handwritten per repetition (paired, same round)."""
    result: dict[str, Any] = {n: statistics.median(v) for n, v in samples.items()}
    result["ratios"] = [
        g / h for g, h in zip(samples["generated"], samples["handwritten"], strict=True)
    ]
    return result


def cold_start(reps: int) -> dict[str, Any]:
    """Median seconds from Popen to the initialize answer, interleaved, after 1 warm-up each."""
    cmds = servers()
    names = list(cmds)
    times: dict[str, list[float]] = {n: [] for n in names}
    for i in range(reps + 1):
        for name in _order(names, i):
            start = time.perf_counter()
            session = RawSession(cmds[name])
            session.initialize()
            elapsed = time.perf_counter() - start
            session.close()
            if i:  # run 0 writes .pyc files and warms the page cache
                times[name].append(elapsed)
    return summary(times)


def same_results() -> None:
    """Both servers must answer the benchmark calls with the same data (a fair comparison)."""
    sessions = {n: RawSession(c) for n, c in servers().items()}
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


def round_trips(tool: str, arguments: dict[str, Any], rounds: int, calls: int) -> dict[str, Any]:
    """tools/call per second over one session per server: median over interleaved rounds."""
    sessions = {n: RawSession(c) for n, c in servers().items()}
    rates: dict[str, list[float]] = {n: [] for n in sessions}
    try:
        for session in sessions.values():
            session.initialize()
            for _ in range(20):  # warm-up: first-call paths, caches
                session.call(tool, arguments)
        for i in range(rounds):
            for name in _order(list(sessions), i):
                session = sessions[name]
                start = time.perf_counter()
                for _ in range(calls):
                    session.call(tool, arguments)
                rates[name].append(calls / (time.perf_counter() - start))
    finally:
        for session in sessions.values():
            session.close()
    return summary(rates)


def sdk_client_round_trips(rounds: int, calls: int) -> dict[str, Any]:
    """The same round trips through the SDK `Client` (stdio), both sessions open, interleaved."""
    spec = {n: {"argv": c.argv, "env": c.full_env()} for n, c in servers().items()}
    done = subprocess.run(
        [str(VENV_PYTHON), str(Path(__file__)), "sdk-client", str(rounds), str(calls)],
        input=json.dumps(spec),
        capture_output=True,
        text=True,
        check=False,
        cwd=WORK,
    )
    if done.returncode != 0:
        raise SystemExit(f"SDK client run failed:\n{done.stderr}")
    return summary(json.loads(done.stdout.strip().splitlines()[-1]))


async def _sdk_client_main(rounds: int, calls: int) -> None:  # runs inside the bench venv
    from contextlib import AsyncExitStack

    from mcp import Client, StdioServerParameters

    spec = json.loads(sys.stdin.read())
    rates: dict[str, list[float]] = {n: [] for n in spec}
    async with AsyncExitStack() as stack:
        clients = {}
        for name, s in spec.items():
            params = StdioServerParameters(
                command=s["argv"][0], args=s["argv"][1:], env=s["env"], cwd=str(WORK)
            )
            clients[name] = await stack.enter_async_context(Client(params, mode="legacy"))
        for client in clients.values():
            for _ in range(20):
                await client.call_tool("get_forecast", FORECAST_ARGS)
        for i in range(rounds):
            for name in _order(list(clients), i):
                start = time.perf_counter()
                for _ in range(calls):
                    result = await clients[name].call_tool("get_forecast", FORECAST_ARGS)
                    assert not result.is_error
                rates[name].append(calls / (time.perf_counter() - start))
    print(json.dumps(rates))


if __name__ == "__main__":
    if sys.argv[1:2] == ["sdk-client"]:
        import anyio

        anyio.run(_sdk_client_main, int(sys.argv[2]), int(sys.argv[3]))
