"""The sealed `requestState` of 2026-07-28 questions, attacked over real HTTP: a confirmation
counts only with the state the server issued for this tool and these arguments, before it
expires. Every refused attempt leaves the handler unrun (it logs each run to a file)."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.project_venv import ProjectVenv, free_port, run_mcpgen, wait_for_port

MANIFEST = """\
name: guarded
version: 0.1.0
tools:
  - name: delete_file
    description: Deletes a file, once the user confirms.
    confirm: true
    input_schema:
      type: object
      properties: {path: {type: string}}
      required: [path]
  - name: wipe_disk
    description: Wipes a disk, once the user confirms.
    confirm: true
    input_schema:
      type: object
      properties: {path: {type: string}}
      required: [path]
"""
HANDLER = """\
import os

def {name}(args):
    with open(os.environ["RUNS_LOG"], "a") as log:
        log.write("{name} " + args.path + "\\n")
    return "done: " + args.path
"""
SECRET = "s" * 40
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "attacker", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
}
ACCEPT = {"action": "accept", "content": {}}
INVALID_PARAMS = -32602


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory, project_venv: ProjectVenv) -> Path:
    root = tmp_path_factory.mktemp("state") / "guarded"
    manifest = root.parent / "mcpgen.yaml"
    manifest.write_text(MANIFEST)
    run_mcpgen("new", "--manifest", str(manifest), "--dir", str(root), "--no-input", "--no-git")
    for name in ("delete_file", "wipe_disk"):
        (root / "src" / "guarded" / "handlers" / f"{name}.py").write_text(HANDLER.format(name=name))
    project_venv.install(root)
    return project_venv.bin / "guarded-server"


@dataclass
class Server:
    url: str
    runs: Path

    def call(self, tool: str, path: str, **retry: Any) -> dict[str, Any]:
        """One stateless 2026-07-28 tools/call; the JSON-RPC response."""
        params = {"name": tool, "arguments": {"path": path}, "_meta": META, **retry}
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
        request = urllib.request.Request(
            self.url,
            data=body.encode(),
            headers={
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": MODERN,
                "Mcp-Method": "tools/call",
                "Mcp-Name": tool,
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as refused:
            text = refused.read().decode()
        for line in text.splitlines():  # a JSON body, or an SSE stream of `data:` lines
            data = line.removeprefix("data:").strip()
            if data.startswith("{") and '"id"' in data:
                answer: dict[str, Any] = json.loads(data)
                return answer
        raise AssertionError(f"no JSON-RPC response in {text!r}")

    def asked(self, tool: str, path: str) -> str:
        """The first round: the server asks for confirmation; its sealed state."""
        result = self.call(tool, path)["result"]
        assert result["resultType"] == "input_required"
        assert list(result["inputRequests"]) == ["confirm_call"]
        state: str = result["requestState"]
        return state

    def confirm(self, tool: str, path: str, state: str | None) -> dict[str, Any]:
        retry: dict[str, Any] = {"inputResponses": {"confirm_call": ACCEPT}}
        if state is not None:
            retry["requestState"] = state
        return self.call(tool, path, **retry)

    @property
    def handler_runs(self) -> list[str]:
        return self.runs.read_text().splitlines() if self.runs.exists() else []


def start(binary: Path, tmp_path: Path, *flags: str, secret: str | None = None) -> Iterator[Server]:
    port = free_port()
    env = {**os.environ, "RUNS_LOG": str(tmp_path / "runs.log")}
    env.pop("MCP_STATE_SECRET", None)
    if secret is not None:
        env["MCP_STATE_SECRET"] = secret
    command = [str(binary), "--transport", "http", "--port", str(port), *flags]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, process)
        yield Server(f"http://127.0.0.1:{port}/mcp", tmp_path / "runs.log")
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture
def server(guarded: Path, tmp_path: Path) -> Iterator[Server]:
    yield from start(guarded, tmp_path, "--state-ttl", "2")


def refused(response: dict[str, Any]) -> bool:
    return response.get("error", {}).get("code") == INVALID_PARAMS


def test_the_confirmation_the_server_asked_for_runs_the_tool(server: Server) -> None:
    state = server.asked("delete_file", "/tmp/a")
    done = server.confirm("delete_file", "/tmp/a", state)["result"]
    assert done["content"][0]["text"] == "done: /tmp/a"
    assert server.handler_runs == ["delete_file /tmp/a"]


def test_a_confirmation_without_state_is_asked_again(server: Server) -> None:
    result = server.confirm("delete_file", "/tmp/a", None)["result"]
    assert result["resultType"] == "input_required"
    assert server.handler_runs == []


def test_a_forged_state_is_refused(server: Server) -> None:
    # What an unsigned state used to be: the recorded answers, readable and writable.
    recorded = {"v": 1, "answers": {}, "asked": {"confirm_call": "x"}}
    plain = base64.urlsafe_b64encode(json.dumps(recorded).encode()).decode()
    for forged in (plain, "v1." + plain.rstrip("="), "v1.AAAA"):
        assert refused(server.confirm("delete_file", "/tmp/a", forged)), forged
    assert server.handler_runs == []


def test_a_tampered_state_is_refused(server: Server) -> None:
    state = server.asked("delete_file", "/tmp/a")
    flipped = state[:-5] + ("A" if state[-5] != "A" else "B") + state[-4:]
    assert refused(server.confirm("delete_file", "/tmp/a", flipped))
    assert refused(server.confirm("delete_file", "/tmp/a", state + "-TAMPERED"))
    assert server.handler_runs == []


def test_a_state_replayed_for_another_tool_or_other_arguments_is_refused(server: Server) -> None:
    state = server.asked("delete_file", "/tmp/harmless")
    assert refused(server.confirm("wipe_disk", "/tmp/harmless", state))
    assert refused(server.confirm("delete_file", "/etc/passwd", state))
    assert server.handler_runs == []


def test_an_expired_state_is_refused(server: Server) -> None:
    state = server.asked("delete_file", "/tmp/a")
    time.sleep(2.5)  # the server runs with --state-ttl 2
    assert refused(server.confirm("delete_file", "/tmp/a", state))
    assert server.handler_runs == []


def test_instances_sharing_a_secret_accept_each_others_state(guarded: Path, tmp_path: Path) -> None:
    first = start(guarded, tmp_path / "one", secret=SECRET)
    second = start(guarded, tmp_path / "two", secret=SECRET)
    stranger = start(guarded, tmp_path / "three")  # its own random key
    for folder in ("one", "two", "three"):
        (tmp_path / folder).mkdir()
    with_first, with_second, with_stranger = next(first), next(second), next(stranger)
    try:
        state = with_first.asked("delete_file", "/tmp/a")
        assert refused(with_stranger.confirm("delete_file", "/tmp/a", state))
        done = with_second.confirm("delete_file", "/tmp/a", state)["result"]
        assert done["content"][0]["text"] == "done: /tmp/a"
    finally:
        for running in (first, second, stranger):
            running.close()


def test_a_short_secret_refuses_to_start(guarded: Path) -> None:
    env = {**os.environ, "WEAK": "short"}
    flags = ["--transport", "http", "--port", str(free_port()), "--state-secret-env", "WEAK"]
    done = subprocess.run(
        [str(guarded), *flags],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "guarded: WEAK must hold at least 32 bytes of random secret "
        '(python -c "import secrets; print(secrets.token_hex(32))")'
    ]
