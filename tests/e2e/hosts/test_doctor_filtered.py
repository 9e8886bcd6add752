"""`mcpgen doctor --toolsets … --tools … --read-only`: the launch probed with the flags the
snippets carry, and the filtered count reported, against a real generated server."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from mcpgen.manifest import load_manifest
from tests.support.cli_runner import run_cli
from tests.support.project_venv import free_port, http_server
from tests.support.toolbox_project import render_toolbox, server_command, server_env

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="the fake venv script is a POSIX shell script"
)


@pytest.fixture(scope="module")
def toolbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toolbox project, with the venv script `pip install -e .` would write."""
    root = tmp_path_factory.mktemp("doctor") / "toolbox"
    src = render_toolbox(root)
    script = root / ".venv" / "bin" / load_manifest(root / "mcpgen.yaml").script
    script.parent.mkdir(parents=True)
    script.write_text(
        f'#!/bin/sh\nPYTHONPATH="{src}" exec "{sys.executable}" -m toolbox "$@"\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return root


def test_doctor_reports_the_filtered_count(toolbox: Path) -> None:
    ran = run_cli(
        "doctor",
        str(toolbox),
        "--host",
        "claude-code",
        "--toolsets",
        "issues",
        "--tools",
        "whoami",
        "--read-only",
        "--url",
        f"http://127.0.0.1:{free_port()}/mcp",
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].endswith("--toolsets issues --tools whoami --read-only")
    assert "tools: get_issue, whoami" in lines
    assert "filtered: 2 of 9 tools (--toolsets issues --tools whoami --read-only)" in lines


def test_without_a_selection_every_tool_is_expected(toolbox: Path) -> None:
    ran = run_cli("doctor", str(toolbox), "--host", "claude-code", "--url", "http://127.0.0.1:9/")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert not any(line.startswith("filtered:") for line in ran.stdout.splitlines())


def test_doctor_sends_the_headers_to_the_http_server(toolbox: Path) -> None:
    port = free_port()
    command = server_command("--transport", "http", "--port", str(port))
    with http_server(command, port, env=server_env(toolbox / "src")) as url:
        ran = run_cli(
            "doctor", str(toolbox), "--host", "claude-code", "--url", url, "--tools", "whoami"
        )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert f"HTTP server at {url} answers, 1 tools for the headers X-MCP-Tools" in ran.stdout
