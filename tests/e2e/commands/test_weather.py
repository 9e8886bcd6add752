"""`mcpgen new weather`, installed into a real venv: its own tests, lint, types, and real
MCP clients over stdio pipes and Streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, TextContent

from tests.support.project_venv import (
    ProjectVenv,
    assert_lint_clean,
    free_port,
    http_server,
    manifest_wire_tools,
    run_mcpgen,
)


@pytest.fixture(scope="module")
def weather(installed_weather: Path) -> Path:
    """The project `mcpgen new weather` made, installed (tests/e2e/conftest.py)."""
    return installed_weather


async def exercise(client: Client, root: Path) -> None:
    """What every transport must do: list as the manifest says, call, refuse bad input."""
    listed = (await client.list_tools()).tools
    published = [t.model_dump(mode="json", by_alias=True, exclude_unset=True) for t in listed]
    assert published == manifest_wire_tools(root / "mcpgen.yaml")

    forecast = await client.call_tool("get_forecast", {"city": "Paris", "days": 2})
    assert not forecast.is_error
    assert forecast.structured_content is not None
    assert forecast.structured_content["city"] == "Paris"
    assert [d["day"] for d in forecast.structured_content["days"]] == [1, 2]

    alerts = await client.call_tool("get_alerts", {"state": "TX", "min_severity": "severe"})
    assert not alerts.is_error
    assert isinstance(alerts.content[0], TextContent)
    assert "thunderstorm" in alerts.content[0].text

    invalid = await client.call_tool("get_forecast", {"city": "Paris", "days": 99})
    assert invalid.is_error
    assert isinstance(invalid.content[0], TextContent)
    assert "days" in invalid.content[0].text  # the message names the field

    bad_pattern = await client.call_tool("get_alerts", {"state": "texas"})
    assert bad_pattern.is_error

    with pytest.raises(MCPError) as unknown:
        await client.call_tool("no_such_tool", {})
    assert unknown.value.code == INVALID_PARAMS


def test_generated_tests_pass(weather: Path, project_venv: ProjectVenv) -> None:
    done = project_venv.pytest(weather)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout
    assert "skipped" not in done.stdout  # the example's handlers are implemented


def test_ruff_and_mypy_strict_are_clean(weather: Path, project_venv: ProjectVenv) -> None:
    assert_lint_clean(weather, project_venv)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_server_with_the_sdk_client(
    weather: Path, project_venv: ProjectVenv, mode: str
) -> None:
    params = StdioServerParameters(command=str(project_venv.bin / "weather-server"), args=[])
    async with Client(params, mode=mode, read_timeout_seconds=30) as client:
        if mode == "legacy":
            assert client.server_info is not None
            assert client.server_info.name == "weather"
        await exercise(client, weather)


@pytest.mark.anyio
async def test_python_dash_m_serves_stdio(weather: Path, project_venv: ProjectVenv) -> None:
    params = StdioServerParameters(command=str(project_venv.python), args=["-m", "weather"])
    async with Client(params, mode="legacy", read_timeout_seconds=30) as client:
        assert len((await client.list_tools()).tools) == 2


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_http_server_with_the_sdk_client(
    weather: Path, project_venv: ProjectVenv, mode: str
) -> None:
    port = free_port()
    command = [str(project_venv.bin / "weather-server"), "--transport", "http", "--port", str(port)]
    with http_server(command, port) as url:
        async with Client(url, mode=mode, read_timeout_seconds=30) as client:
            await exercise(client, weather)


def test_missing_required_environment_stops_the_server(
    tmp_path: Path, project_venv: ProjectVenv
) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(
        "name: needs-key\nversion: 1.0.0\nenv:\n"
        "  NEEDS_KEY_TOKEN: {description: API token, required: true, secret: true}\n"
        "tools:\n  - name: ping\n    description: Ping.\n    input_schema: {type: object}\n",
        encoding="utf-8",
    )
    root = tmp_path / "needs-key"
    run_mcpgen("new", "--manifest", str(manifest), "--dir", str(root), "--no-input", "--no-git")
    env = {k: v for k, v in os.environ.items() if k != "NEEDS_KEY_TOKEN"}
    env["PYTHONPATH"] = str(root / "src")
    done = subprocess.run(
        [str(project_venv.python), "-m", "needs_key"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert "NEEDS_KEY_TOKEN (API token)" in done.stderr
    assert "Traceback" not in done.stderr
