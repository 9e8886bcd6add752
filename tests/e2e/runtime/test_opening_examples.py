"""Each example project answers the handshake and tools/list at start-up (from `launch.py`,
before its catalog or the SDK is loaded) exactly as its own SDK server answers them.

The runtime's differential test (`test_opening`) proves the answers for any `ServerInfo`; this
proves that what the generator writes into `launch.py` (`offers` above all) matches what the
project's catalog then serves. Each example runs in a fresh interpreter, with its own copy of
the runtime.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
PROBE = """
import json, os, sys, threading
import anyio
from {package}._generated import launch, server
from {package}._runtime.stdio.fast_path import FastPath
from {package}._runtime.stdio.opening import Opening
from {package}._runtime.stdio.transport import serve_fds

lines = [json.dumps(m).encode() for m in json.loads(sys.argv[1])]
opening = Opening(launch.SERVER, launch.TOOLS, 1 << 20)
ours = [opening._answer(line) for line in lines]
in_read, in_write = os.pipe()
out_read, out_write = os.pipe()
os.write(in_write, b"".join(line + b"\\n" for line in lines))
os.close(in_write)
answers = []


def read():
    while chunk := os.read(out_read, 1 << 16):
        answers.append(chunk)


reader = threading.Thread(target=read)
reader.start()
sdk_server = server.build_server()
fast = FastPath(server.dispatcher, sdk_server)
anyio.run(lambda: serve_fds(sdk_server, in_read, out_write, fast))
os.close(out_write)
reader.join()
sdk = b"".join(answers).splitlines()
print(json.dumps([[None if a is None else a.decode() for a in ours], [a.decode() for a in sdk]]))
"""


def _initialize(version: str) -> dict[str, object]:
    params = {
        "protocolVersion": version,
        "capabilities": {"roots": {"listChanged": True}},
        "clientInfo": {"name": "raw", "version": "0"},
    }
    return {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}


@pytest.mark.parametrize("example", ["weather", "everything", "memory", "notes-app"])
@pytest.mark.parametrize("version", ["2024-11-05", "2025-11-25"])
def test_the_start_up_answers_are_the_projects_sdk_answers(example: str, version: str) -> None:
    src = EXAMPLES / example / "src"
    (package,) = [p.name for p in src.iterdir() if (p / "_generated").is_dir()]
    messages = [
        _initialize(version),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    ]
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(package=package), json.dumps(messages)],
        cwd=src,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    ours, sdk = json.loads(done.stdout)
    assert None not in ours  # every line answered at start-up
    assert [a.rstrip("\n") for a in ours if a] == sdk
