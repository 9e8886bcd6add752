"""Machine facts are gathered once, at the edge; launch commands are pure functions of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.hosts.launch import MachineFacts, build_launch, current_os, gather_facts
from mcpgen.manifest.model import Manifest
from tests.support.hosts import POSIX_ROOT


def test_gather_facts_looks_at_the_venv_and_path_once(tmp_path: Path) -> None:
    asked: list[str] = []

    def which(name: str) -> str | None:
        asked.append(name)
        return f"/opt/{name}" if name == "uv" else None

    facts = gather_facts(tmp_path, current_os(), which)
    assert asked == ["uv", "uvx", "pipx"]
    assert facts.programs == {"uv": "/opt/uv"} and not facts.has_venv
    assert facts.launcher(None) == "uv"
    (tmp_path / ".venv").mkdir()
    assert gather_facts(tmp_path, current_os(), which).launcher(None) == "venv"


def test_other_os_snippets_never_use_this_machines_paths(tmp_path: Path) -> None:
    other = "windows" if current_os() != "windows" else "linux"
    facts = gather_facts(tmp_path, other, lambda name: f"/opt/{name}")
    assert facts.programs == {}


def test_build_launch_needs_nothing_but_the_facts(manifest: Manifest) -> None:
    facts = MachineFacts("linux", programs={"uvx": "/opt/uvx"})
    assert build_launch(manifest, POSIX_ROOT, "uvx", facts).argv == [
        "/opt/uvx",
        "--from",
        "weather",
        "weather-server",
    ]
    assert build_launch(manifest, POSIX_ROOT, "pipx", facts).command == "pipx"


def test_an_unknown_launcher_is_refused() -> None:
    from mcpgen.errors import McpgenError

    with pytest.raises(McpgenError, match="unknown launcher"):
        MachineFacts("linux").launcher("conda")
