"""Real `mcpgen` processes on real generated projects, for the crash, race and lock tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mcpgen.core.header import GENERATED_HEADER
from mcpgen.write.journal import JOURNAL_PATH
from mcpgen.write.transaction import DELAY_ENV
from tests.support.in_memory import Tree, snapshot_tree

USER_MARK = "# my own code, written by hand\n"


def synthetic_tool(index: int, *, description: str = "Does things") -> dict[str, Any]:
    tool: dict[str, Any] = {
        "name": f"tool_{index:03d}",
        "description": f"{description} ({index})",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"],
        },
    }
    if index % 3 == 0:
        tool["output_schema"] = {
            "type": "object",
            "properties": {"temp": {"type": "number"}},
            "required": ["temp"],
        }
    return tool


def manifest_text(tools: list[dict[str, Any]]) -> str:
    # JSON is YAML: a big manifest without a YAML writer.
    head = "name: bench\nversion: 1.0.0\ndescription: Many tools\n"
    return head + "tools: " + json.dumps(tools, indent=1) + "\n"


def changed_tools(count: int) -> list[dict[str, Any]]:
    """The manifest after a big edit: renames (moves), new text (updates), removals, additions."""
    tools = [synthetic_tool(i) for i in range(count)]
    for tool in tools[:20]:  # with a new python_name: handler and user test move
        tool["renamed_from"] = tool["name"]
        tool["name"] = tool["python_name"] = tool["name"].replace("tool_", "renamed_")
    for tool in tools[20:60]:
        tool["description"] = "Does other things"
    del tools[60:65]
    tools += [synthetic_tool(1000 + i) for i in range(20)]
    return tools


def mcpgen(*args: str, delay: float = 0.0) -> subprocess.Popen[str]:
    env = {**os.environ, DELAY_ENV: str(delay)}
    return subprocess.Popen(
        [sys.executable, "-m", "mcpgen", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def run_mcpgen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def wait_for(path: Path, process: subprocess.Popen[str], timeout: float = 120) -> bool:
    """Poll until `path` exists; False if the process ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.002)
    raise AssertionError(f"{path} never appeared")


def wait_for_journal(root: Path, process: subprocess.Popen[str]) -> bool:
    return wait_for(root / JOURNAL_PATH, process)


def user_files(tree: Tree) -> dict[str, bytes]:
    """Every file in a tree that holds the user's mark: handlers and tests the user edited."""
    return {p: b for p, b in tree.items() if USER_MARK.encode() in b}


def mark_user_files(root: Path) -> None:
    """Edit every handler and user test as a user would (append a line)."""
    for path in [*root.glob("src/*/handlers/*.py"), *root.glob("tests/test_*.py")]:
        data = path.read_bytes()
        if path.name != "__init__.py" and not data.startswith(GENERATED_HEADER.encode()):
            path.write_bytes(data + USER_MARK.encode())


def copy_project(source: Path, target: Path) -> Path:
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, symlinks=True)
    return target


def project_tree(root: Path) -> Tree:
    return snapshot_tree(root)
