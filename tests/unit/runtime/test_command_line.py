"""A bare command line (how hosts start a server) gives the flags' defaults without argparse,
exactly what argparse gives for it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.entry.command_line import defaults, parse_args
from mcpgen.runtime.entry.flags import parser

INFO = ServerInfo(name="demo", version="1.2.3", script="demo-server", description="Demo")


def test_the_defaults_are_what_argparse_gives_for_no_flags() -> None:
    parsed = parser(INFO).parse_args([], namespace=SimpleNamespace())
    assert vars(defaults()) == vars(parsed)
    assert vars(parse_args(INFO, [])) == vars(parsed)


def test_the_defaults_are_fresh_each_time() -> None:
    first = defaults()
    first.allowed_host.append("example.com")
    assert defaults().allowed_host == []


def test_flags_are_parsed_over_the_defaults() -> None:
    args = parse_args(INFO, ["--port", "9000", "--allowed-host", "a.example"])
    assert (args.port, args.allowed_host, args.transport) == (9000, ["a.example"], "stdio")


def test_help_shows_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(INFO, ["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--port PORT HTTP only (default: 8000)" in shown
    assert "(default: 600)" in shown  # --state-ttl, as %(default)g
