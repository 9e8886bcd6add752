"""A generated project's server deployed as a team would: a non-loopback bind, a token,
health checks and a clean stop. Real processes, reached through 127.0.0.1 only."""

from __future__ import annotations

import os
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest

from mcpgen.hosts.http_auth import auth_check, initialize_status
from tests.support.project_venv import ProjectVenv, free_port, wait_for_port

TOKEN = "deploy-test-token-0123456789abcdef"


@pytest.fixture(scope="module")
def weather_server(installed_weather: Path, project_venv: ProjectVenv) -> Path:
    """The installed `mcpgen new weather` server (tests/e2e/conftest.py)."""
    return project_venv.bin / "weather-server"


def test_a_public_bind_without_auth_refuses_to_start(weather_server: Path) -> None:
    port = str(free_port())
    done = subprocess.run(
        [str(weather_server), "--transport", "http", "--host", "0.0.0.0", "--port", port],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "refusing to serve 0.0.0.0 without authentication" in done.stderr


def test_a_public_bind_with_a_token(weather_server: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    command = [str(weather_server), "--transport", "http", "--host", "0.0.0.0", "--port", str(port)]
    env = {**os.environ, "WEATHER_TOKEN": TOKEN}
    process = subprocess.Popen(
        [*command, "--auth-token-env", "WEATHER_TOKEN"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_port(port, process)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as health:
            assert health.status == 200
        assert initialize_status(url, None, 10) == 401
        assert initialize_status(url, "wrong", 10) == 401
        assert initialize_status(url, TOKEN, 10) == 200
        assert auth_check(url, "WEATHER_TOKEN", {"WEATHER_TOKEN": TOKEN}).status == "ok"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        process.wait(timeout=10)
