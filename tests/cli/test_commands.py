"""Commands in process: each parses its options and hands over to the library."""

from __future__ import annotations

import codecs
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli.conftest import PING_MANIFEST
from tests.support.cli_runner import run_cli


def test_hosts_writes_every_snippet_and_config_all_is_the_same(ping_project: Path) -> None:
    done = run_cli("hosts", str(ping_project), "--launcher", "uv")
    assert done.returncode == 0, done.stderr
    first = {p.name: p.read_bytes() for p in (ping_project / "hosts").iterdir()}
    assert {"claude_desktop.json", "cline_mcp_settings.json", "README.md"} <= set(first)
    shutil.rmtree(ping_project / "hosts")
    older = run_cli(
        "config", "--all", str(ping_project), "--launcher", "uv", cwd=ping_project.parent
    )
    assert older.returncode == 0, older.stderr
    assert {p.name: p.read_bytes() for p in (ping_project / "hosts").iterdir()} == first


def test_config_lists_hosts_without_a_host(ping_project: Path) -> None:
    done = run_cli("config", cwd=ping_project)
    assert done.returncode == 0 and "claude-desktop" in done.stdout and "cline" in done.stdout


def test_add_tool_keeps_the_byte_order_mark_and_generates(ping_project: Path) -> None:
    manifest = ping_project / "mcpgen.yaml"
    manifest.write_bytes(codecs.BOM_UTF8 + PING_MANIFEST.encode("utf-8"))
    done = run_cli("add", "tool", "pong", "--dir", str(ping_project))
    assert done.returncode == 0, done.stderr
    data = manifest.read_bytes()
    assert data.startswith(codecs.BOM_UTF8) and b"name: pong" in data
    assert (ping_project / "src/demo/handlers/pong.py").is_file()
    assert "Added tool pong to" in done.stderr


def test_add_tool_leaves_the_manifest_alone_when_the_name_is_invalid(ping_project: Path) -> None:
    before = (ping_project / "mcpgen.yaml").read_bytes()
    done = run_cli("add", "tool", "no spaces allowed", "--dir", str(ping_project))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (ping_project / "mcpgen.yaml").read_bytes() == before
    assert list(ping_project.iterdir()) == [ping_project / "mcpgen.yaml"]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_new_commits_the_project_as_mcpgen(tmp_path: Path) -> None:
    done = run_cli("new", "w", "--no-input", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "(git repository, first commit)" in done.stderr
    log = subprocess.run(
        ["git", "log", "--format=%an <%ae> %s"],
        cwd=tmp_path / "w",
        capture_output=True,
        text=True,
        check=True,
    )
    assert log.stdout.strip() == "mcpgen <mcpgen@localhost> New MCP server project from mcpgen"


def test_new_removes_what_it_created_when_a_step_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mcpgen.generation

    def broken(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(mcpgen.generation, "generate_project", broken)
    done = run_cli("new", "w", "--no-input", "--no-git", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "No space left on device; removed w and the" in done.stderr, done.stderr
    assert not (tmp_path / "w").exists()
