"""`mcpgen config HOST --toolsets … --tools … --read-only`: every host's snippet carries the
selection, as the server's flags on stdio and as X-MCP-* headers over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcpgen.hosts import HOSTS
from tests.support.cli_runner import Ran, run_cli
from tests.support.host_validators import VALIDATORS, parse

MANIFEST = """\
name: tracker
version: 0.1.0
description: Issues and repositories
tools:
  - name: get_issue
    tags: [issues]
    annotations: {readOnlyHint: true}
    input_schema: {type: object}
  - name: delete_repo
    tags: [repos]
    input_schema: {type: object}
  - name: whoami
    input_schema: {type: object}
"""
SELECTION = ("--toolsets", "issues,repos", "--tools", "whoami", "--read-only")
HEADERS = {"X-MCP-Toolsets": "issues,repos", "X-MCP-Tools": "whoami", "X-MCP-Readonly": "true"}
CASES = [(host.key, transport) for host in HOSTS for transport in host.transports]


@pytest.fixture
def tracker(tmp_path: Path) -> Path:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    return tmp_path


def config(folder: Path, *args: str) -> Ran:
    return run_cli("config", *args, "--launcher", "uv", "--os", "linux", cwd=folder)


def _walk(value: Any) -> Iterator[Any]:
    yield value
    children = value.values() if isinstance(value, dict) else value
    if isinstance(value, (dict, list)):
        for child in children:
            yield from _walk(child)


def _argument_lists(document: Any) -> list[list[str]]:
    return [
        v for v in _walk(document) if isinstance(v, list) and all(isinstance(s, str) for s in v)
    ]


@pytest.mark.parametrize(("host", "transport"), CASES, ids=[f"{h}-{t}" for h, t in CASES])
def test_every_host_format_carries_the_selection(tracker: Path, host: str, transport: str) -> None:
    fmt = next(h.fmt for h in HOSTS if h.key == host)
    ran = config(tracker, host, "--transport", transport, *SELECTION)
    assert ran.returncode == 0, ran.stderr
    document = parse(fmt, ran.stdout)
    VALIDATORS[host](document, "tracker")
    if transport == "stdio":
        # The flags follow the launch's own arguments, in the order given.
        lists = _argument_lists(document)
        assert any(v[-len(SELECTION) :] == list(SELECTION) for v in lists), ran.stdout
    elif host == "claude-desktop":  # through the mcp-remote bridge's --header arguments
        (args,) = [v for v in _argument_lists(document) if "mcp-remote" in v]
        pairs = [f"{name}:{value}" for name, value in HEADERS.items()]
        assert all(args[args.index(p) - 1] == "--header" for p in pairs), args
    else:
        maps = [v for v in _walk(document) if isinstance(v, dict) and "X-MCP-Tools" in v]
        assert maps and all(m.items() >= HEADERS.items() for m in maps), ran.stdout


def test_without_a_selection_no_flag_or_header_is_written(tracker: Path) -> None:
    stdio = config(tracker, "claude-code")
    http = config(tracker, "claude-code", "--transport", "http")
    assert "--toolsets" not in stdio.stdout and "X-MCP" not in http.stdout


def test_the_headers_join_the_bearer_header(tracker: Path) -> None:
    ran = config(tracker, "cursor", "--transport", "http", "--bearer-env", "TOKEN", "--read-only")
    headers = parse("json", ran.stdout)["mcpServers"]["tracker"]["headers"]
    assert headers == {"Authorization": "Bearer ${env:TOKEN}", "X-MCP-Readonly": "true"}


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (("--toolsets", "isues"), "toolset 'isues'"),
        (("--tools", "get_isue,whoami"), "tool 'get_isue'"),
    ],
)
def test_an_unknown_toolset_or_tool_is_refused(
    tracker: Path, flags: tuple[str, ...], named: str
) -> None:
    ran = config(tracker, "cursor", *flags)
    assert ran.returncode == 2 and ran.stdout == ""
    assert f"no such {named} in the manifest" in ran.stderr
    assert "the manifest's tags: issues, repos" in ran.stderr


def test_the_hosts_folder_carries_the_selection(tracker: Path) -> None:
    ran = run_cli("hosts", ".", "--launcher", "uv", "--os", "linux", "--read-only", cwd=tracker)
    assert ran.returncode == 0, ran.stderr
    cursor = parse("json", (tracker / "hosts" / "cursor.mcp.json").read_text(encoding="utf-8"))
    assert cursor["mcpServers"]["tracker"]["args"][-1] == "--read-only"
