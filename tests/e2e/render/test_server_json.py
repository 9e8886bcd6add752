"""server.json per the MCP Registry's schema: checked with check-jsonschema on each example."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mcpgen.manifest import load_manifest
from mcpgen.manifest.model import build_manifest
from mcpgen.render.server_json import SCHEMA_FILE, server_json, server_json_text
from tests.support.cli_runner import run_cli

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "mcpgen" / "render" / SCHEMA_FILE
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


CURRENT_FORMAT = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"


def test_each_example_validates_against_the_registry_format() -> None:
    done = check_jsonschema(*(example / "server.json" for example in EXAMPLES))
    assert done.returncode == 0, done.stdout + done.stderr


def test_entries_name_and_follow_the_current_format(tmp_path: Path) -> None:
    """mcp-publisher refuses entries of an older format than 2025-12-11."""
    rendered = []
    for example in EXAMPLES:
        entry = server_json(load_manifest(example / "mcpgen.yaml"))
        assert entry["$schema"] == CURRENT_FORMAT
        rendered.append(tmp_path / f"{example.name}.json")
        rendered[-1].write_text(json.dumps(entry))
    remote = dict(RAW, publish={"remoteUrl": "https://crm.example.com/mcp"})
    rendered.append(tmp_path / "remote.json")
    rendered[-1].write_text(server_json_text(build_manifest(remote)))
    done = check_jsonschema(*rendered)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_entry_of_an_older_format_is_refused(tmp_path: Path) -> None:
    entry = server_json(build_manifest(RAW))
    entry["$schema"] = (
        "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json"
    )
    old = tmp_path / "server.json"
    old.write_text(json.dumps(entry))
    assert check_jsonschema(old).returncode == 1


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
    assert len(entry["description"]) == 100 and entry["description"].endswith("…")
    assert entry["description"].startswith("Accounts and deals.")


def test_a_blank_description_falls_back_to_the_name() -> None:
    entry = server_json(build_manifest(dict(RAW, description="  \n ")))
    assert entry["description"] == "acme-crm MCP server"


LONG_DESCRIPTION = """\
name: acme-crm
version: 2.0.1
description: >-
  Accounts, contacts, deals and the pipeline of a small sales team, with reports on each
  quarter and reminders.
tools:
  - {name: ping, description: Ping., input_schema: {type: object}}
"""


def test_validate_warns_where_the_description_is_too_long(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(LONG_DESCRIPTION)
    done = run_cli("validate", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("mcpgen.yaml:3:14:")]
    assert line == (
        "mcpgen.yaml:3:14: description: warning: 109 characters, over the MCP Registry's 100 "
        "for server.json's `description`: server.json gets the first 99 and '…'; shorten it"
    )


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


PUBLISHED = """\
name: acme-crm
version: 2.0.1
description: Accounts and deals.
publish:
  repository: https://github.com/acme/crm
tools:
  - {name: ping, description: Ping., input_schema: {type: object}}
"""


def test_validate_warns_when_the_readme_lacks_the_registry_ownership_line(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(PUBLISHED)
    (tmp_path / "README.md").write_text("# acme-crm\n")
    done = run_cli("validate", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (
        "mcpgen.yaml:5:15: publish.repository: warning: README.md has no "
        "`mcp-name: io.github.acme/acme-crm` line"
    ) in done.stderr
    (tmp_path / "README.md").write_text("# acme-crm\n<!-- mcp-name: io.github.acme/acme-crm -->\n")
    assert "mcp-name" not in run_cli("validate", cwd=tmp_path).stderr
    (tmp_path / "mcpgen.yaml").write_text(
        PUBLISHED.replace("publish:\n  repository: https://github.com/acme/crm\n", "")
    )
    assert "mcp-name" not in run_cli("validate", cwd=tmp_path).stderr  # local/: not published
