"""`mcpgen config`, `mcpgen hosts` and `mcpgen doctor` through the command line, in process."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.support.cli_runner import Ran, run_cli
from tests.support.hosts import SECRET_VALUE

MANIFEST = """\
name: weather
version: 0.1.0
description: Forecasts
env:
  WEATHER_TOKEN: {description: API token, required: true, secret: true}
tools:
  - name: get_forecast
    description: Forecast for a city
    input_schema: {type: object, properties: {city: {type: string}}}
"""


def mcpgen(*args: str, cwd: Path, stdin: str = "") -> Ran:
    return run_cli(*args, cwd=cwd, stdin=stdin, env={"WEATHER_TOKEN": SECRET_VALUE})


@pytest.fixture
def weather_folder(tmp_path: Path) -> Path:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    return tmp_path


def test_config_prints_only_the_snippet_on_stdout(weather_folder: Path) -> None:
    result = mcpgen("config", "cline", ".", "--launcher", "uv", cwd=weather_folder)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["mcpServers"]["weather"]["args"][-1] == "weather-server"
    assert "<WEATHER_TOKEN>" in result.stderr  # the placeholder warning
    codex = mcpgen(
        "config",
        "codex",
        "--transport",
        "http",
        "--bearer-env",
        "WEATHER_TOKEN",
        cwd=weather_folder,
    )
    assert (
        tomllib.loads(codex.stdout)["mcp_servers"]["weather"]["bearer_token_env_var"]
        == "WEATHER_TOKEN"
    )
    assert SECRET_VALUE not in result.stdout + result.stderr + codex.stdout + codex.stderr


def test_config_all_writes_the_hosts_folder(weather_folder: Path) -> None:
    result = mcpgen("config", "--all", str(weather_folder), cwd=weather_folder.parent)
    assert result.returncode == 0, result.stderr
    names = {p.name for p in (weather_folder / "hosts").iterdir()}
    assert {"claude_desktop.json", "cline_mcp_settings.json", "README.md"} <= names


def test_install_and_uninstall_through_the_cli(weather_folder: Path) -> None:
    config = weather_folder / "cfg" / "mcp.json"
    config.parent.mkdir()
    config.write_text('{"mcpServers": {"weather": {"command": "old"}}}', encoding="utf-8")
    refused = mcpgen(
        "config",
        "cursor",
        "--install",
        "--config-path",
        str(config),
        cwd=weather_folder,
        stdin="n\n",
    )
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert "Traceback" not in refused.stderr
    done = mcpgen(
        "config", "cursor", "--install", "--config-path", str(config), "--yes", cwd=weather_folder
    )
    assert done.returncode == 0 and "replaced" in done.stderr
    again = mcpgen(
        "config", "cursor", "--install", "--config-path", str(config), cwd=weather_folder
    )
    assert "already up to date" in again.stderr
    gone = mcpgen(
        "config", "cursor", "--uninstall", "--config-path", str(config), cwd=weather_folder
    )
    assert gone.returncode == 0
    assert json.loads(config.read_text(encoding="utf-8")) == {"mcpServers": {}}


@pytest.mark.parametrize(
    "args",
    [
        ["config", "nope"],
        ["config", "cline", "--os", "beos"],
        ["config", "cline", "--transport", "sse"],
    ],
)
def test_usage_errors_have_no_traceback(weather_folder: Path, args: list[str]) -> None:
    result = mcpgen(*args, cwd=weather_folder)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "error:" in result.stderr


def test_broken_config_file_is_refused(weather_folder: Path) -> None:
    config = weather_folder / "broken.json"
    config.write_text("{not json", encoding="utf-8")
    result = mcpgen(
        "config", "cline", "--install", "--config-path", str(config), cwd=weather_folder
    )
    assert result.returncode == 1 and "not valid" in result.stderr
    assert config.read_text(encoding="utf-8") == "{not json"


def test_doctor_reports_a_missing_interpreter(weather_folder: Path) -> None:
    result = mcpgen(
        "doctor",
        ".",
        "--launcher",
        "venv",
        "--host",
        "cline",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--timeout",
        "5",
        cwd=weather_folder,
    )
    assert result.returncode == 1
    assert "missing program or interpreter" in result.stdout
    assert "Traceback" not in result.stderr
