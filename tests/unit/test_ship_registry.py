"""server.json per the MCP Registry's schema: checked with check-jsonschema on each example."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mcpgen.manifest.model import build_manifest
from mcpgen.ship.registry import SCHEMA_FILE, server_json

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "mcpgen" / "ship" / SCHEMA_FILE
EXAMPLES = sorted(p.parent for p in (REPO / "examples").glob("*/mcpgen.yaml"))


def check_jsonschema(*documents: Path) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("check-jsonschema")
    assert binary, "check-jsonschema is in the test extra"
    return subprocess.run(
        [binary, "--schemafile", str(SCHEMA), *map(str, documents)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_each_example_validates_against_the_registry_format() -> None:
    done = check_jsonschema(*(example / "server.json" for example in EXAMPLES))
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_rejects_what_the_registry_rejects(tmp_path: Path) -> None:
    entry = json.loads((REPO / "examples" / "weather" / "server.json").read_text())
    entry["name"] = "no-namespace"  # the registry wants NAMESPACE/NAME
    entry["packages"][0]["version"] = "latest"
    bad = tmp_path / "server.json"
    bad.write_text(json.dumps(entry))
    done = check_jsonschema(bad)
    assert done.returncode == 1
    assert "no-namespace" in done.stdout


RAW: dict[str, Any] = {
    "name": "acme-crm",
    "version": "2.0.1",
    "description": "Accounts and deals. " * 10,
    "env": {
        "CRM_TOKEN": {"description": "API token", "secret": True, "required": True},
        "CRM_REGION": {"description": "Region", "default": "eu"},
    },
    "tools": [{"name": "ping", "input_schema": {"type": "object"}}],
}


@pytest.fixture
def entry() -> dict[str, Any]:
    return server_json(build_manifest(RAW))


def test_pypi_package_with_console_script_and_env(entry: dict[str, Any]) -> None:
    (package,) = entry["packages"]
    assert package["registryType"] == "pypi"
    assert (package["identifier"], package["version"]) == ("acme-crm", "2.0.1")
    assert package["transport"] == {"type": "stdio"}
    token, region = package["environmentVariables"]
    assert token == {
        "name": "CRM_TOKEN",
        "description": "API token",
        "isRequired": True,
        "isSecret": True,
    }
    assert region["isRequired"] is False and region["isSecret"] is False
    assert region["default"] == "eu"
    meta = entry["_meta"]["io.modelcontextprotocol.registry/publisher-provided"]
    assert meta["consoleScript"] == "acme-crm-server"


def test_description_fits_the_registry_limit(entry: dict[str, Any]) -> None:
    assert len(entry["description"]) <= 100
    assert entry["description"].startswith("Accounts and deals.")


def test_no_remote_until_one_is_configured(entry: dict[str, Any]) -> None:
    assert "remotes" not in entry
    assert entry["name"] == "local/acme-crm"


def test_remote_and_repository_from_the_publish_section() -> None:
    raw = dict(
        RAW,
        publish={
            "repository": "https://github.com/acme/crm",
            "remoteUrl": "https://crm.example.com/mcp",
        },
    )
    entry = server_json(build_manifest(raw))
    assert entry["name"] == "io.github.acme/acme-crm"
    assert entry["repository"] == {"url": "https://github.com/acme/crm", "source": "github"}
    (remote,) = entry["remotes"]
    assert (remote["type"], remote["url"]) == ("streamable-http", "https://crm.example.com/mcp")
    (header,) = remote["headers"]
    assert header["name"] == "Authorization" and header["isSecret"] is True
