"""`--install` / `--uninstall` on real files: nothing but the entry ever changes."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from mcpgen.errors import McpgenError
from mcpgen.hosts import get_host
from mcpgen.hosts.base import Host, Target, Where
from mcpgen.hosts.install import InstallResult, install
from mcpgen.hosts.launch import MachineFacts
from mcpgen.hosts.render import make_target
from mcpgen.manifest.model import Manifest
from tests.support.host_validators import parse
from tests.support.hosts import POSIX_ROOT

OTHERS_JSON = """\
{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    }
  },
  "unknownFutureKey": {"nested": [1, 2, 3]}
}
"""
COMMENTED_JSONC = """\
// VS Code MCP servers
{
  "inputs": [
    // keep this prompt
    {"type": "promptString", "id": "gh-token", "description": "GitHub", "password": true}
  ],
  "servers": {
    "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}, // remote
  },
}
"""
COMMENTED_ZED = """\
// Zed settings
{
  "theme": "One Dark", // my theme
  /* fonts */
  "buffer_font_size": 15,
  "context_servers": {
    "other": {"command": "other-server", "args": []}
  }
}
"""
COMMENTED_TOML = """\
# Codex config
model = "o3"  # the model

[mcp_servers.docs]
command = "docs-server"   # keep this comment
args = ["--port", "1"]

[profiles.fast]
model = "o4-mini"
"""
COMMENTED_GOOSE = """\
# goose config
GOOSE_PROVIDER: openai  # provider
extensions:
  developer:
    enabled: true
    name: developer
    type: builtin
    # a comment inside
    timeout: 300
"""
COMMENTED_CONTINUE = """\
name: My Config  # mine
version: 1.0.0
schema: v1
models:
  - name: gpt
    provider: openai
mcpServers:
  - name: other
    command: other-server
"""


def _where(tmp_path: Path, os_name: str = "linux", **env: str) -> Where:
    return Where(
        os=os_name,
        env=dict(env),
        home=tmp_path / "home",  # type: ignore[arg-type]
        project=tmp_path / "project",
    )


def _target(manifest: Manifest, transport: str = "stdio") -> Target:
    return make_target(
        manifest,
        POSIX_ROOT,
        transport,  # type: ignore[arg-type]
        launcher="venv",
        facts=MachineFacts("linux"),
        bearer_env="WEATHER_TOKEN",
    )


def _install(host: Host, target: Target, path: Path, **kw: object) -> InstallResult:
    return install(host, target, _where(path.parent), config_path=path, which=lambda _: None, **kw)  # type: ignore[arg-type]


def _backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.*.bak"))


CASES = [
    ("cline", "settings.json", OTHERS_JSON),
    ("claude-desktop", "claude_desktop_config.json", OTHERS_JSON),
    ("vscode", "mcp.json", COMMENTED_JSONC),
    ("zed", "settings.json", COMMENTED_ZED),
    ("codex", "config.toml", COMMENTED_TOML),
    ("goose", "config.yaml", COMMENTED_GOOSE),
    ("continue", "config.yaml", COMMENTED_CONTINUE),
    ("opencode", "opencode.jsonc", '{\n  // mine\n  "mcp": {}\n}\n'),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_install_keeps_everything_else_and_uninstall_restores(
    manifest: Manifest, tmp_path: Path, case: tuple[str, str, str], transport: str
) -> None:
    key, name, original = case
    host = get_host(key)
    target = _target(manifest, transport)
    path = tmp_path / name
    path.write_text(original, encoding="utf-8")
    result = _install(host, target, path)
    assert result.action == "added"
    text = path.read_text(encoding="utf-8")
    for line in original.splitlines():
        if "#" in line or "//" in line or "/*" in line:
            assert line.strip() in text, f"comment lost: {line!r}"
    fmt = "jsonc" if host.fmt == "jsonc" or key == "vscode" else host.fmt
    data = parse(fmt, text)
    before = parse(fmt, original)
    assert result.backup is not None and result.backup.read_text(encoding="utf-8") == original
    # Idempotent: nothing written, no new backup.
    mtime = path.stat().st_mtime_ns
    assert _install(host, target, path).action == "unchanged"
    assert path.stat().st_mtime_ns == mtime and len(_backups(path)) == 1
    # Uninstall gives back the original bytes.
    assert _install(host, target, path, uninstall=True).action == "removed"
    assert path.read_text(encoding="utf-8") == original
    assert data != before
    assert _install(host, target, path, uninstall=True).action == "absent"


@pytest.mark.parametrize(
    "key",
    [
        "cline",
        "vscode",
        "zed",
        "codex",
        "goose",
        "continue",
        "opencode",
        "claude-code",
        "kiro",
        "gemini",
    ],
)
def test_absent_and_empty_files_are_created_with_the_right_root(
    manifest: Manifest, tmp_path: Path, key: str
) -> None:
    host = get_host(key)
    target = _target(manifest)
    absent = tmp_path / "absent" / "deep" / f"config.{host.fmt}"
    for path in (absent, tmp_path / f"empty.{host.fmt}"):
        if path.name.startswith("empty"):
            path.write_text("", encoding="utf-8")
        assert _install(host, target, path).action == "added"
        data = parse(host.fmt, path.read_text(encoding="utf-8"))
        if host.entries_are_list:
            assert data[host.container[0]][0] == host.entry(target)
            assert data["schema"] == "v1"
        else:
            assert data[host.container[0]]["weather"] == host.entry(target)
        assert _install(host, target, path).action == "unchanged"


def test_same_name_entry_asks_and_respects_the_answer(manifest: Manifest, tmp_path: Path) -> None:
    host = get_host("cline")
    path = tmp_path / "cline.json"
    original = '{"mcpServers": {"weather": {"command": "old", "args": []}, "x": {}}}\n'
    path.write_text(original, encoding="utf-8")
    questions: list[str] = []

    def no(question: str) -> bool:
        questions.append(question)
        return False

    with pytest.raises(McpgenError, match="--yes"):
        _install(host, _target(manifest), path, confirm=no)
    assert questions and "weather" in questions[0]
    assert path.read_text(encoding="utf-8") == original and not _backups(path)
    result = _install(host, _target(manifest), path, confirm=lambda _: True)
    assert result.action == "replaced"
    path.write_text(original, encoding="utf-8")
    result = _install(host, _target(manifest), path, yes=True, confirm=no)
    assert result.action == "replaced" and len(questions) == 1
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["mcpServers"]["x"] == {} and data["mcpServers"]["weather"]["command"] != "old"


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("cline", '{"mcpServers": {"a": 1},,}'),
        ("cline", '{\n  // comments are not JSON\n  "mcpServers": {}\n}'),  # strict host
        ("vscode", '{"servers": {'),
        ("codex", "[mcp_servers.x\ncommand = 1"),
        ("goose", "extensions: [unclosed"),
        ("cline", "[]"),
    ],
)
def test_unparsable_file_is_refused_untouched(
    manifest: Manifest, tmp_path: Path, key: str, text: str
) -> None:
    path = tmp_path / "config"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(McpgenError, match="not valid"):
        _install(get_host(key), _target(manifest), path, yes=True)
    assert path.read_text(encoding="utf-8") == text
    assert not _backups(path)


def test_read_only_file_is_a_clear_error(manifest: Manifest, tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {}}\n', encoding="utf-8")
    path.chmod(stat.S_IRUSR | stat.S_IRGRP)
    try:
        with pytest.raises(McpgenError, match="read-only"):
            _install(get_host("cursor"), _target(manifest), path)
        assert path.read_text(encoding="utf-8") == '{"mcpServers": {}}\n'
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_file_mode_is_kept(manifest: Manifest, tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text("{}", encoding="utf-8")
    path.chmod(0o600)
    _install(get_host("cursor"), _target(manifest), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_vscode_uninstall_removes_only_its_own_inputs(manifest: Manifest, tmp_path: Path) -> None:
    host = get_host("vscode")
    path = tmp_path / "mcp.json"
    path.write_text(COMMENTED_JSONC, encoding="utf-8")
    _install(host, _target(manifest), path)
    data = parse("jsonc", path.read_text(encoding="utf-8"))
    assert [i["id"] for i in data["inputs"]] == ["gh-token", "weather-weather-token"]
    _install(host, _target(manifest), path, uninstall=True)
    assert path.read_text(encoding="utf-8") == COMMENTED_JSONC


# -- where the files are ----------------------------------------------------------------------


def test_windows_claude_desktop_prefers_the_msix_location(
    manifest: Manifest, tmp_path: Path
) -> None:
    appdata, local = tmp_path / "Roaming", tmp_path / "Local"
    appdata.mkdir()
    where = _where(
        tmp_path,
        "windows",
        APPDATA=str(appdata),
        LOCALAPPDATA=str(local),
        USERPROFILE=str(tmp_path / "home"),
    )
    host = get_host("claude-desktop")
    assert host.config_path(where) == appdata / "Claude" / "claude_desktop_config.json"
    package = local / "Packages" / "Claude_pzs8sxrjxfjjc"
    package.mkdir(parents=True)
    msix = package / "LocalCache" / "Roaming" / "Claude" / "claude_desktop_config.json"
    assert host.config_path(where) == msix
    result = install(host, _target(manifest), where, which=lambda _: None)
    assert result.path == msix and msix.is_file()
    assert not (appdata / "Claude").exists()


def test_missing_appdata_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(McpgenError, match="APPDATA"):
        get_host("cline").config_path(_where(tmp_path, "windows"))


@pytest.mark.parametrize(
    ("key", "os_name", "expected"),
    [
        (
            "cline",
            "linux",
            "xdg/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
        ),
        (
            "cline",
            "macos",
            "home/Library/Application Support/Code/User/globalStorage/"
            "saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
        ),
        (
            "cline",
            "windows",
            "appdata/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
        ),
        ("vscode", "windows", "appdata/Code/User/mcp.json"),
        ("zed", "windows", "appdata/Zed/settings.json"),
        ("zed", "linux", "xdg/zed/settings.json"),
        ("zed", "macos", "home/.config/zed/settings.json"),
        ("goose", "windows", "appdata/Block/goose/config/config.yaml"),
        ("goose", "linux", "xdg/goose/config.yaml"),
        ("codex", "windows", "profile/.codex/config.toml"),
        ("cursor", "windows", "profile/.cursor/mcp.json"),
        ("windsurf", "linux", "home/.codeium/windsurf/mcp_config.json"),
        (
            "claude-desktop",
            "macos",
            "home/Library/Application Support/Claude/claude_desktop_config.json",
        ),
        ("claude-code", "linux", "project/.mcp.json"),
        ("copilot-cli", "linux", "home/.copilot/mcp-config.json"),
        ("lmstudio", "linux", "home/.lmstudio/mcp.json"),
        ("kiro", "macos", "home/.kiro/settings/mcp.json"),
        ("gemini", "linux", "home/.gemini/settings.json"),
        ("continue", "linux", "home/.continue/config.yaml"),
        ("opencode", "linux", "home/.config/opencode/opencode.json"),
    ],
)
def test_config_paths_per_os(tmp_path: Path, key: str, os_name: str, expected: str) -> None:
    where = Where(
        os=os_name,
        home=tmp_path / "home",
        project=tmp_path / "project",  # type: ignore[arg-type]
        env={
            "APPDATA": str(tmp_path / "appdata"),
            "USERPROFILE": str(tmp_path / "profile"),
            "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        },
    )
    assert get_host(key).config_path(where) == tmp_path / expected


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("cursor", "project/.cursor/mcp.json"),
        ("vscode", "project/.vscode/mcp.json"),
        ("roo", "project/.roo/mcp.json"),
        ("gemini", "project/.gemini/settings.json"),
        ("kiro", "project/.kiro/settings/mcp.json"),
        ("codex", "project/.codex/config.toml"),
        ("opencode", "project/opencode.json"),
    ],
)
def test_project_scope_paths(tmp_path: Path, key: str, expected: str) -> None:
    where = Where(
        os="linux", env={}, home=tmp_path / "home", project=tmp_path / "project", scope="project"
    )
    assert get_host(key).config_path(where) == tmp_path / expected


# -- Claude Code through its CLI ---------------------------------------------------------------


class FakeClaude:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, argv: list[str]) -> subprocess.CompletedProcess[str]:
        self.calls.append(argv)
        return subprocess.CompletedProcess(argv, 0, "", "")


def test_claude_code_uses_the_cli_when_present(manifest: Manifest, tmp_path: Path) -> None:
    host = get_host("claude-code")
    where = _where(tmp_path)
    where.home.mkdir(parents=True)
    runner = FakeClaude()
    result = install(
        host, _target(manifest), where, which=lambda _: "/usr/bin/claude", runner=runner
    )
    assert result.action == "added" and result.path is None
    (argv,) = runner.calls
    assert argv[:4] == ["claude", "mcp", "add-json", "weather"]
    assert json.loads(argv[4]) == host.entry(_target(manifest))
    assert argv[5:] == ["--scope", "user"]
    assert not (where.project / ".mcp.json").exists()
    # Already there and equal: nothing run. Different: ask, then remove + add.
    (where.home / ".claude.json").write_text(
        json.dumps({"mcpServers": {"weather": host.entry(_target(manifest))}}), encoding="utf-8"
    )
    assert (
        install(host, _target(manifest), where, which=lambda _: "claude", runner=runner).action
        == "unchanged"
    )
    (where.home / ".claude.json").write_text(
        '{"mcpServers": {"weather": {"command": "x"}}}', encoding="utf-8"
    )
    with pytest.raises(McpgenError):
        install(host, _target(manifest), where, which=lambda _: "claude", runner=runner)
    install(host, _target(manifest), where, which=lambda _: "claude", runner=runner, yes=True)
    assert [c[2] for c in runner.calls] == ["add-json", "remove", "add-json"]
    install(host, _target(manifest), where, which=lambda _: "claude", runner=runner, uninstall=True)
    assert runner.calls[-1] == ["claude", "mcp", "remove", "weather", "--scope", "user"]


def test_claude_code_cli_failure_is_reported(manifest: Manifest, tmp_path: Path) -> None:
    def failing(argv: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(argv, 1, "", "Invalid input")

    with pytest.raises(McpgenError, match="Invalid input"):
        install(
            get_host("claude-code"),
            _target(manifest),
            _where(tmp_path),
            which=lambda _: "claude",
            runner=failing,
        )


def test_claude_code_without_cli_writes_project_mcp_json(
    manifest: Manifest, tmp_path: Path
) -> None:
    where = _where(tmp_path)
    result = install(get_host("claude-code"), _target(manifest), where, which=lambda _: None)
    assert result.path == where.project / ".mcp.json"
    data = json.loads(result.path.read_text(encoding="utf-8"))
    assert data["mcpServers"]["weather"]["env"]["WEATHER_TOKEN"] == "${WEATHER_TOKEN}"
    assert os.access(result.path, os.R_OK)
