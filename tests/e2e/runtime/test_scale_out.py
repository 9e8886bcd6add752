"""Three stateless replicas of a generated server behind a real nginx, round-robin.

The replicas run the container's command (the generated Dockerfile's CMD, bound to
127.0.0.1 instead of 0.0.0.0). First every call of a steady run must be answered once, with
the right result, spread evenly; then one replica is SIGKILLed mid-run and every call must
still get an answer the client sees (a result, or nginx's 502 for calls that were inside the
killed replica), while the other two keep serving.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.project_venv import ProjectVenv, free_port, run_mcpgen
from tests.support.sweep import rounds

REPLICAS = 3
CLIENTS = 20
CALLS = rounds(600, 2000)  # per run, steady and killed: fewer in CI (`tests/support/sweep.py`)
TOKEN_ENV = "MCP_AUTH_TOKEN"
CLIENT_TIMEOUT = 30.0  # a call with no answer by then counts as lost

MANIFEST = """\
name: scale
version: 1.0.0
description: Squares numbers, slowly on request.
tools:
  - name: square
    description: The square of n, after delay_ms milliseconds; names the replica.
    input_schema:
      type: object
      properties:
        n: {type: integer}
        delay_ms: {type: integer, minimum: 0, maximum: 5000, default: 0}
      required: [n]
    output_schema:
      type: object
      properties:
        n: {type: integer}
        square: {type: integer}
        replica: {type: integer}
      required: [n, square, replica]
"""

HANDLER = """\
from __future__ import annotations

import os

import anyio

from scale._generated.models import SquareInput, SquareOutput


async def square(args: SquareInput) -> SquareOutput:
    await anyio.sleep(args.delay_ms / 1000)
    return SquareOutput(n=args.n, square=args.n * args.n, replica=os.getpid())
"""

# Calls are POSTs: nginx passes one to the next replica only when the request never reached
# the first (connection refused), never after it was sent, so no call runs twice. A call
# inside a replica that dies gets a 502 the client sees.
NGINX_CONF = """\
{user}worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format calls '$http_x_call_id $upstream_addr $status';
    access_log {tmp}/access.log calls;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    upstream replicas {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Connection "";
            proxy_buffering off;
            proxy_connect_timeout 2s;
            proxy_read_timeout 30s;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_next_upstream_tries {replicas};
        }}
    }}
}}
"""


def nginx_binary() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the scale-out test: nginx is missing (.ci/run installs it)")
        pytest.skip("nginx is not installed (apt-get install -y nginx)")
    return found


def container_command(project: Path) -> list[str]:
    """The generated Dockerfile's CMD: what the image runs."""
    text = (project / "Dockerfile").read_text(encoding="utf-8")
    match = re.search(r"^CMD (\[.*\])$", text, re.MULTILINE)
    assert match, "the Dockerfile has an exec-form CMD"
    command: list[str] = json.loads(match.group(1))
    return command


def health_check(project: Path) -> list[str]:
    """The generated Dockerfile's HEALTHCHECK command."""
    text = (project / "Dockerfile").read_text(encoding="utf-8")
    match = re.search(r"^\s+CMD (\[.*\])$", text.split("HEALTHCHECK", 1)[1], re.MULTILINE)
    assert match, "the HEALTHCHECK has an exec-form CMD"
    command: list[str] = json.loads(match.group(1))
    return command


def healthy_by_the_image(project: Path, venv_: ProjectVenv, port: int) -> bool:
    command = health_check(project)
    command = [str(venv_.python), *[part.replace(":8000/", f":{port}/") for part in command[1:]]]
    return subprocess.run(command, capture_output=True, timeout=30, check=False).returncode == 0


def with_option(command: list[str], flag: str, value: str) -> list[str]:
    position = command.index(flag)
    return [*command[: position + 1], value, *command[position + 2 :]]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, project_venv: ProjectVenv) -> Path:
    base = tmp_path_factory.mktemp("scale")
    manifest = base / "scale.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    root = base / "scale"
    run_mcpgen("new", "scale", "--manifest", str(manifest), "--dir", str(root), "--no-input")
    (root / "src" / "scale" / "handlers" / "square.py").write_text(HANDLER, encoding="utf-8")
    project_venv.install(root)
    return root


@dataclass
class Replica:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


def wait_healthy(replica: Replica, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert replica.process.poll() is None, "replica exited before it was healthy"
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://{replica.address}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise AssertionError(f"replica on {replica.port} not healthy within {timeout} s")


@contextlib.contextmanager
def replicas(
    project: Path, venv_: ProjectVenv, token: str, log_dir: Path
) -> Iterator[list[Replica]]:
    command = container_command(project)
    command[0] = str(venv_.bin / command[0])
    command = with_option(command, "--host", "127.0.0.1")
    env = {**os.environ, TOKEN_ENV: token}
    started: list[Replica] = []
    try:
        for index in range(REPLICAS):
            port = free_port()
            log = (log_dir / f"replica-{index}.log").open("wb")
            process = subprocess.Popen(
                with_option(command, "--port", str(port)),
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            started.append(Replica(port, process))
        for replica in started:
            wait_healthy(replica)
        yield started
    finally:
        for replica in started:
            if replica.process.poll() is None:
                replica.process.terminate()
        for replica in started:
            try:
                replica.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                replica.process.kill()
                replica.process.wait()


@contextlib.contextmanager
def nginx(upstreams: list[Replica], workdir: Path) -> Iterator[str]:
    binary = nginx_binary()
    port = free_port()
    servers = "\n".join(
        f"        server {r.address} max_fails=1 fail_timeout=60s;" for r in upstreams
    )
    # A master started as root hands requests to workers of `user`; they must reach workdir.
    user = "user root;\n" if os.geteuid() == 0 else ""
    config = workdir / "nginx.conf"
    config.write_text(
        NGINX_CONF.format(
            user=user, tmp=workdir, servers=servers, port=port, replicas=len(upstreams)
        ),
        encoding="utf-8",
    )
    process = subprocess.Popen(
        [binary, "-p", str(workdir), "-e", str(workdir / "error.log"), "-c", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else b""
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Outcome:
    """What the client saw for one call."""

    call: int
    status: int | None = None  # HTTP status; None: no answer at all (lost)
    result: dict[str, Any] | None = None
    error: str | None = None
    started: float = 0.0


@dataclass
class Run:
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    answered_once: Counter[int] = field(default_factory=Counter)
    done: int = 0


async def one_call(client: httpx.AsyncClient, url: str, token: str, n: int, delay: int) -> Outcome:
    outcome = Outcome(n, started=time.monotonic())
    request = {
        "jsonrpc": "2.0",
        "id": n,
        "method": "tools/call",
        "params": {"name": "square", "arguments": {"n": n, "delay_ms": delay}},
    }
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
        "X-Call-Id": str(n),
    }
    try:
        response = await client.post(url, json=request, headers=headers)
    except httpx.HTTPError as error:  # no HTTP answer: the call would be lost
        outcome.error = f"{type(error).__name__}: {error}"
        return outcome
    outcome.status = response.status_code
    if response.status_code != 200:
        outcome.error = response.text[:200]
        return outcome
    body = response.json()
    assert body["id"] == n, f"answer to call {body['id']} came back for call {n}"
    outcome.result = body.get("result")
    if outcome.result is None or outcome.result.get("isError"):
        outcome.error = json.dumps(body)[:200]
    return outcome


async def drive(url: str, token: str, delay: int, on_progress: Any = None) -> Run:
    """CALLS calls from CLIENTS concurrent clients, each with its own connection pool."""
    run = Run()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(CALLS):
        queue.put_nowait(n)

    async def client_loop() -> None:
        async with httpx.AsyncClient(timeout=CLIENT_TIMEOUT) as client:
            while True:
                try:
                    n = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                outcome = await one_call(client, url, token, n, delay)
                run.outcomes[n] = outcome
                run.answered_once[n] += 1
                run.done += 1
                if on_progress is not None:
                    on_progress(run)

    await asyncio.gather(*(client_loop() for _ in range(CLIENTS)))
    return run


def upstream_log(workdir: Path) -> dict[int, tuple[str, str]]:
    """Call id → (the upstream address(es) nginx tried, its status), from the access log."""
    entries: dict[int, tuple[str, str]] = {}
    for line in (workdir / "access.log").read_text().splitlines():
        parts = line.split(" ")
        if parts[0].isdigit():
            entries[int(parts[0])] = (" ".join(parts[1:-1]), parts[-1])
    return entries


def right(outcome: Outcome) -> bool:
    result = outcome.result or {}
    structured = result.get("structuredContent") or {}
    return structured.get("n") == outcome.call and structured.get("square") == outcome.call**2


def test_three_replicas_answer_every_call_and_survive_a_killed_one(
    project: Path, project_venv: ProjectVenv, tmp_path: Path
) -> None:
    token = secrets.token_urlsafe(24)
    steady_dir, kill_dir = tmp_path / "steady", tmp_path / "kill"
    for folder in (steady_dir, kill_dir):
        folder.mkdir()

    # 1. Steady state: every call answered exactly once, right, spread round-robin.
    with (
        replicas(project, project_venv, token, steady_dir) as running,
        nginx(running, steady_dir) as url,
    ):
        pids = {r.process.pid for r in running}
        assert all(healthy_by_the_image(project, project_venv, r.port) for r in running)
        run = asyncio.run(drive(url, token, delay=0))
    assert len(run.outcomes) == CALLS and set(run.answered_once.values()) == {1}
    failed = [o for o in run.outcomes.values() if not right(o)]
    assert not failed, failed[:3]
    per_replica = Counter(o.result["structuredContent"]["replica"] for o in run.outcomes.values())  # type: ignore[index]
    assert set(per_replica) == pids
    assert max(per_replica.values()) - min(per_replica.values()) <= CALLS // 20, per_replica

    # 2. One replica SIGKILLed once a quarter of the calls are done.
    killed: dict[str, Any] = {}

    def kill_once(progress: Run, victim: Replica) -> None:
        if not killed and progress.done >= CALLS // 4:
            os.kill(victim.process.pid, signal.SIGKILL)
            killed.update(at=time.monotonic(), done=progress.done)

    with (
        replicas(project, project_venv, token, kill_dir) as running,
        nginx(running, kill_dir) as url,
    ):
        victim = running[1]
        run = asyncio.run(drive(url, token, delay=50, on_progress=lambda r: kill_once(r, victim)))
        victim.process.wait(timeout=10)
        assert not healthy_by_the_image(project, project_venv, victim.port)
        survivors = {r.process.pid for r in running if r is not victim}
        assert all(r.process.poll() is None for r in running if r is not victim)
        log = upstream_log(kill_dir)

    outcomes = list(run.outcomes.values())
    lost = [o for o in outcomes if o.status is None]
    answered = [o for o in outcomes if right(o)]
    errors = [o for o in outcomes if o.status is not None and not right(o)]
    assert killed, "the victim was killed"
    assert len(outcomes) == CALLS and set(run.answered_once.values()) == {1}
    assert not lost, lost[:3]
    assert len(answered) + len(errors) == CALLS
    # Every error is nginx's 502 for a call that was inside the killed replica.
    assert all(o.status == 502 for o in errors), errors[:3]
    assert all(victim.address in log[o.call][0] for o in errors)
    after = [o for o in answered if o.started > killed["at"]]
    assert {o.result["structuredContent"]["replica"] for o in after} == survivors  # type: ignore[index]
    print(
        f"\nscale-out: replicas {REPLICAS}, clients {CLIENTS}; steady: sent {CALLS}, "
        f"answered {CALLS}, lost 0, per replica {sorted(per_replica.values())}; "
        f"kill after {killed['done']} calls: sent {CALLS}, answered {len(answered)}, "
        f"errors {len(errors)} (HTTP 502, in flight on the killed replica), lost {len(lost)}; "
        f"answered after the kill by the 2 others: {len(after)}"
    )
