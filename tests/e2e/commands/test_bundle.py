"""The MCP Bundle: its manifest.json validated, the bundle packed and read by the official CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from mcpgen.commands.bundle import build_bundle
from mcpgen.errors import McpgenError
from mcpgen.manifest.model import build_manifest
from mcpgen.render.bundle_manifest import bundle_manifest
from tests.support.once import once
from tests.support.weather_project import fresh_weather, weather

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = sorted(p.parent for p in (REPO / "examples").glob("*/mcpgen.yaml"))
# `.ci/run` installs the CLI here (git-ignored); the version is the one these tests know.
NPM_FOLDER = REPO / ".test-npm"
MCPB_PACKAGE = "@anthropic-ai/mcpb@2.1.2"
__all__ = ["fresh_weather", "weather"]  # fixtures


@pytest.fixture(scope="module")
def mcpb() -> Path:
    """The official MCP Bundle CLI, installed into NPM_FOLDER once, whatever the workers."""
    binary = NPM_FOLDER / "node_modules" / ".bin" / "mcpb"
    npm = shutil.which("npm")
    if npm is None:
        if binary.exists():
            return binary
        if os.environ.get("CI"):
            pytest.fail("CI must run the bundle tests: npm is missing")
        pytest.skip("npm is not installed")

    def install() -> None:
        command = [npm, "install", "--silent", "--no-audit", "--no-fund"]
        command += ["--prefix", str(NPM_FOLDER), MCPB_PACKAGE]
        subprocess.run(command, check=True, capture_output=True, timeout=600)

    once(NPM_FOLDER / f"{MCPB_PACKAGE.rsplit('/', maxsplit=1)[-1]}.installed", install)
    return binary


def run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_mcpb_validate_accepts_each_example(mcpb: Path, example: Path) -> None:
    done = run(mcpb, "validate", example / "manifest.json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "passes" in done.stdout


def test_mcpb_validate_is_not_a_rubber_stamp(mcpb: Path, tmp_path: Path) -> None:
    document = json.loads((REPO / "examples" / "weather" / "manifest.json").read_text())
    document["server"]["type"] = "ruby"
    bad = tmp_path / "manifest.json"
    bad.write_text(json.dumps(document))
    assert run(mcpb, "validate", bad).returncode != 0


def test_bundle_is_packed_unpacked_and_repacked_by_mcpb(
    mcpb: Path, weather: Path, tmp_path: Path
) -> None:
    project = weather
    (project / "src" / "weather" / "__pycache__").mkdir()
    (project / "src" / "weather" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (project / "src" / "weather" / ".env").write_text("WEATHER_API_KEY=hunter2\n")
    (project / "data.txt").write_text("Paris\n")  # linked from inside the package: packed
    (project / "src" / "weather" / "data.txt").symlink_to(Path("..") / ".." / "data.txt")
    bundle = build_bundle(project / "mcpgen.yaml")
    assert bundle.left_out == ("src/weather/.env",)
    assert bundle.path == project / "dist" / "weather-0.1.0.mcpb"
    with zipfile.ZipFile(bundle.path) as archive:
        names = archive.namelist()
        assert json.loads(archive.read("manifest.json"))["version"] == "0.1.0"
    assert {"manifest.json", "pyproject.toml", "README.md"} <= set(names)
    assert "src/weather/_generated/server.py" in names and "src/weather/__main__.py" in names
    assert not [n for n in names if "__pycache__" in n or n.startswith(("tests/", ".mcpgen/"))]

    info = run(mcpb, "info", bundle.path)
    assert info.returncode == 0, info.stdout + info.stderr
    unpacked = tmp_path / "unpacked"
    assert run(mcpb, "unpack", bundle.path, unpacked).returncode == 0
    assert not (unpacked / "src" / "weather" / ".env").exists()
    data = unpacked / "src" / "weather" / "data.txt"
    assert not data.is_symlink() and data.read_text() == "Paris\n"
    repacked = run(mcpb, "pack", unpacked, tmp_path / "repacked.mcpb")
    assert repacked.returncode == 0, repacked.stdout + repacked.stderr
    assert f"total files: {len(names)}" in repacked.stdout


def test_same_project_same_bytes(weather: Path, tmp_path: Path) -> None:
    project = weather
    first = build_bundle(project / "mcpgen.yaml", tmp_path / "a.mcpb")
    second = build_bundle(project / "mcpgen.yaml", tmp_path / "b.mcpb")
    assert first.path.read_bytes() == second.path.read_bytes()


def test_stale_bundle_manifest_is_refused(weather: Path) -> None:
    project = weather
    manifest = project / "mcpgen.yaml"
    manifest.write_text(manifest.read_text().replace("version: 0.1.0", "version: 0.2.0"))
    with pytest.raises(McpgenError, match="run `mcpgen generate` first"):
        build_bundle(manifest)
    assert not (project / "dist").exists()


RAW: dict[str, Any] = {
    "name": "acme-crm",
    "version": "2.0.1",
    "description": "Accounts and deals",
    "env": {
        "CRM_TOKEN": {"description": "API token", "secret": True, "required": True},
        "CRM_REGION": {"description": "Region", "default": "eu"},
    },
    "publish": {"author": "Acme"},
    "tools": [{"name": "ping", "description": "Ping.", "input_schema": {"type": "object"}}],
}


def test_secret_env_is_a_sensitive_user_config_referenced_by_the_server_env() -> None:
    document = bundle_manifest(build_manifest(RAW))
    token = document["user_config"]["crm_token"]
    assert token["sensitive"] is True and token["required"] is True
    assert "default" not in token
    region = document["user_config"]["crm_region"]
    assert region["sensitive"] is False and region["default"] == "eu"
    assert document["server"]["mcp_config"]["env"] == {
        "CRM_TOKEN": "${user_config.crm_token}",
        "CRM_REGION": "${user_config.crm_region}",
    }
    assert document["server"]["mcp_config"]["args"][-1] == "acme-crm-server"
    assert document["author"] == {"name": "Acme"}
    assert document["tools"] == [{"name": "ping", "description": "Ping."}]


def test_bundle_command_writes_the_bundle_or_says_what_to_run(
    weather: Path, tmp_path: Path
) -> None:
    from tests.support.cli_runner import run_cli

    project = weather
    done = run_cli("bundle", str(project), "-o", str(tmp_path / "w.mcpb"))
    assert done.returncode == 0, done.stderr
    assert f"Wrote {tmp_path / 'w.mcpb'} (" in done.stdout
    assert zipfile.is_zipfile(tmp_path / "w.mcpb")

    manifest = project / "mcpgen.yaml"
    manifest.write_text(manifest.read_text().replace("version: 0.1.0", "version: 0.2.0"))
    stale = run_cli("bundle", str(project))
    assert stale.returncode == 1
    assert "run `mcpgen generate` first" in stale.stderr
    assert "Traceback" not in stale.stderr
