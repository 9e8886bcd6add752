"""A manifest change reaches the Dockerfile, server.json and the bundle manifest on the next
`mcpgen generate`, under the same ownership and `--check` rules as every generated file."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SHIPPED = ("Dockerfile", "server.json", "manifest.json")


def mcpgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def weather_copy(tmp_path: Path) -> Path:
    root = tmp_path / "weather"
    shutil.copytree(REPO / "examples" / "weather", root)
    return root


def edit_manifest(root: Path) -> None:
    manifest = root / "mcpgen.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("version: 0.1.0", "version: 0.4.2", 1)
    text = text.replace("description: ", "description: Now with tides. ", 1)
    text = text.replace(
        "env:\n", "env:\n  TIDES_KEY: {description: Tide service key, secret: true}\n"
    )
    manifest.write_text(text, encoding="utf-8")


def test_version_env_and_description_reach_every_shipped_file(weather_copy: Path) -> None:
    edit_manifest(weather_copy)
    check = mcpgen("generate", "--check", cwd=weather_copy)
    assert check.returncode == 1
    for name in SHIPPED:
        assert f"{name}: would be updated" in check.stdout + check.stderr

    assert mcpgen("generate", cwd=weather_copy).returncode == 0
    assert mcpgen("generate", "--check", cwd=weather_copy).returncode == 0

    dockerfile = (weather_copy / "Dockerfile").read_text()
    assert 'org.opencontainers.image.version="0.4.2"' in dockerfile
    assert "Now with tides." in dockerfile and "TIDES_KEY" in dockerfile

    entry = json.loads((weather_copy / "server.json").read_text())
    assert entry["version"] == entry["packages"][0]["version"] == "0.4.2"
    assert entry["description"].startswith("Now with tides.")
    tides = next(
        v for v in entry["packages"][0]["environmentVariables"] if v["name"] == "TIDES_KEY"
    )
    assert tides["isSecret"] is True

    bundle = json.loads((weather_copy / "manifest.json").read_text())
    assert bundle["version"] == "0.4.2"
    assert bundle["description"].startswith("Now with tides.")
    assert bundle["user_config"]["tides_key"]["sensitive"] is True
    assert bundle["server"]["mcp_config"]["env"]["TIDES_KEY"] == "${user_config.tides_key}"


def test_user_edits_to_dockerignore_survive(weather_copy: Path) -> None:
    ignore = weather_copy / ".dockerignore"
    ignore.write_text(ignore.read_text() + "!data/\n")
    edit_manifest(weather_copy)
    assert mcpgen("generate", cwd=weather_copy).returncode == 0
    assert ignore.read_text().endswith("!data/\n")


def test_hand_edited_dockerfile_is_refused_not_overwritten(weather_copy: Path) -> None:
    dockerfile = weather_copy / "Dockerfile"
    edited = dockerfile.read_text() + "RUN echo mine\n"
    dockerfile.write_text(edited)
    edit_manifest(weather_copy)
    done = mcpgen("generate", cwd=weather_copy)
    assert done.returncode != 0
    assert "Dockerfile: edited by hand" in done.stdout + done.stderr
    assert dockerfile.read_text() == edited
    assert (
        json.loads((weather_copy / "server.json").read_text())["version"] == "0.1.0"
    )  # all or none
