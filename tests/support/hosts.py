"""What the host snippet tests share: one manifest that exercises every env and name rule (the
`manifest` fixture in tests/conftest.py builds it), project roots, and a machine's facts."""

from __future__ import annotations

from pathlib import PurePosixPath, PureWindowsPath

from mcpgen.hosts.launch import LAUNCHER_PROGRAMS, MachineFacts, OsName, current_os

WEATHER = {
    "name": "weather",
    "version": "0.1.0",
    "description": "Forecasts and alerts",
    "env": {
        "WEATHER_TOKEN": {"description": "API token", "required": True, "secret": True},
        "WEATHER_REGION": {"description": "Region code", "required": True},
        "WEATHER_UNITS": {"description": "Units", "default": "metric"},
        "WEATHER_DEBUG": {"description": "Verbose logs"},
    },
    "tools": [
        {
            "name": "get_forecast",
            "description": "Forecast",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    ],
}
POSIX_ROOT = PurePosixPath("/home/me/weather")
WINDOWS_ROOT = PureWindowsPath("C:\\Users\\me\\My Projects\\weather")
SECRET_VALUE = "sk-live-DO-NOT-LEAK-4242"


def fake_which(name: str) -> str:
    return f"/usr/local/bin/{name}"


def fake_facts(os_name: OsName) -> MachineFacts:
    """Facts of a machine with every launcher program in /usr/local/bin (resolved, as
    `gather_facts` does, only when the snippet is for the OS the tests run on)."""
    programs = {n: fake_which(n) for n in LAUNCHER_PROGRAMS} if os_name == current_os() else {}
    return MachineFacts(os_name, programs=programs)
