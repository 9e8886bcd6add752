"""Golden snippets for every host and transport, parsed with real parsers and checked
against each host's documented structure."""

from __future__ import annotations

from pathlib import Path, PurePath

import pytest

from mcpgen.hosts import HOSTS, get_host, render_host_files
from mcpgen.hosts.base import Host
from mcpgen.hosts.launch import Launcher, MachineFacts, OsName, gather_facts
from mcpgen.hosts.render import make_target, render_snippets
from mcpgen.manifest.model import Manifest
from tests.support.host_validators import VALIDATORS, parse
from tests.support.hosts import POSIX_ROOT, WINDOWS_ROOT, fake_facts

GOLDEN = Path(__file__).parent / "golden"
# (case folder, OS, project root, launcher, bearer variable for HTTP)
CASES: list[tuple[str, OsName, PurePath, Launcher, str | None]] = [
    ("linux-venv", "linux", POSIX_ROOT, "venv", None),
    ("linux-uv-bearer", "linux", POSIX_ROOT, "uv", "WEATHER_TOKEN"),
    ("macos-uvx", "macos", POSIX_ROOT, "uvx", None),
    ("windows-venv-bearer", "windows", WINDOWS_ROOT, "venv", "WEATHER_TOKEN"),
    ("windows-pipx", "windows", WINDOWS_ROOT, "pipx", None),
]


def _snippet_files(
    manifest: Manifest, case: tuple[str, OsName, PurePath, Launcher, str | None]
) -> dict[str, str]:
    _, os_name, root, launcher, bearer = case
    files: dict[str, str] = {}
    for snippet in render_snippets(
        manifest,
        root,
        HOSTS,
        launcher=launcher,
        facts=fake_facts(os_name),
        bearer_env=bearer,
    ):
        files[snippet.filename] = snippet.text
        notes = [f"warning: {w}" for w in snippet.warnings]
        notes += [f"{e.label}: {e.text}" for e in snippet.extras]
        files[snippet.filename + ".notes"] = "\n".join(notes) + "\n"
    return files


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_goldens(
    manifest: Manifest,
    case: tuple[str, OsName, PurePath, Launcher, str | None],
    update_goldens: bool,
) -> None:
    folder = GOLDEN / case[0]
    files = _snippet_files(manifest, case)
    if update_goldens:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            old.unlink()
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8", newline="")
    expected = {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()}
    assert sorted(files) == sorted(expected), "run pytest --update-goldens and review the diff"
    for name, text in files.items():
        assert text == expected[name], f"{case[0]}/{name} differs; --update-goldens to accept"


@pytest.mark.parametrize("host", HOSTS, ids=[h.key for h in HOSTS])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_snippet_parses_and_matches_the_host_format(
    manifest: Manifest, host: Host, case: tuple[str, OsName, PurePath, Launcher, str | None]
) -> None:
    _, os_name, root, launcher, bearer = case
    for transport in host.transports:
        target = make_target(
            manifest,
            root,
            transport,
            launcher=launcher,
            facts=fake_facts(os_name),
            bearer_env=bearer,
        )
        snippet = host.render(target)
        document = parse(host.fmt, snippet.text)
        assert document == snippet.document
        VALIDATORS[host.key](document, "weather")


def test_every_issue_host_is_registered() -> None:
    wanted = {
        "claude-desktop",
        "claude-code",
        "cline",
        "roo",
        "cursor",
        "vscode",
        "windsurf",
        "zed",
        "codex",
        "gemini",
        "continue",
        "goose",
        "opencode",
        "lmstudio",
        "kiro",
        "copilot-cli",
    }
    assert wanted <= {h.key for h in HOSTS}
    assert set(VALIDATORS) == {h.key for h in HOSTS}
    assert len(
        {h.filename("stdio") for h in HOSTS} | {h.filename("http") for h in HOSTS}
    ) == 2 * len(HOSTS)


@pytest.mark.parametrize(
    "alias", ["Claude_Desktop", "claude code", "VS-Code", "roo-code", "gemini-cli", "lm-studio"]
)
def test_get_host_accepts_spellings(alias: str) -> None:
    assert get_host(alias).key in {h.key for h in HOSTS}


def test_render_host_files_required_names_and_determinism(
    manifest: Manifest, tmp_path: Path
) -> None:
    first = render_host_files(manifest, tmp_path, fake_facts("linux"), launcher="venv")
    second = render_host_files(manifest, tmp_path, fake_facts("linux"), launcher="venv")
    assert first == second
    paths = [f.path for f in first]
    assert paths == sorted(paths)
    assert {
        "hosts/claude_desktop.json",
        "hosts/cline_mcp_settings.json",
        "hosts/README.md",
        "hosts/vscode.mcp.json",
        "hosts/codex.toml",
    } <= set(paths)
    readme = next(f.content for f in first if f.path == "hosts/README.md")
    for host in HOSTS:
        assert f"mcpgen config {host.key}" in readme


def test_default_launcher_is_the_venv_when_present(manifest: Manifest, tmp_path: Path) -> None:
    files = {
        f.path: f.content
        for f in render_host_files(manifest, tmp_path, gather_facts(tmp_path, "linux"))
    }
    assert "uv" in files["hosts/cline_mcp_settings.json"]
    (tmp_path / ".venv").mkdir()
    files = {
        f.path: f.content
        for f in render_host_files(manifest, tmp_path, gather_facts(tmp_path, "linux"))
    }
    assert f"{tmp_path}/.venv/bin/weather-server" in files["hosts/cline_mcp_settings.json"]


def test_windows_forms(manifest: Manifest) -> None:
    desktop = get_host("claude-desktop")
    target = make_target(
        manifest, WINDOWS_ROOT, "stdio", launcher="venv", facts=MachineFacts("windows")
    )
    assert (
        desktop.entry(target)["command"]
        == "C:\\Users\\me\\My Projects\\weather\\.venv\\Scripts\\weather-server.exe"
    )
    bridge = make_target(
        manifest, WINDOWS_ROOT, "http", launcher="venv", facts=MachineFacts("windows")
    )
    entry = desktop.entry(bridge)
    assert entry["command"] == "cmd" and entry["args"][:3] == ["/c", "npx", "-y"]
    # Backslashes are escaped by the serialiser, never by hand.
    assert "C:\\\\Users\\\\me" in desktop.render(target).text
    codex = get_host("codex").render(target).text
    assert parse("toml", codex)["mcp_servers"]["weather"]["command"].startswith("C:\\Users")


def test_claude_desktop_http_is_the_bridge_with_a_warning(manifest: Manifest) -> None:
    host = get_host("claude-desktop")
    target = make_target(
        manifest,
        POSIX_ROOT,
        "http",
        launcher="venv",
        facts=MachineFacts("macos"),
        bearer_env="WEATHER_TOKEN",
    )
    snippet = host.render(target)
    assert snippet.entry["args"][:3] == ["-y", "mcp-remote", "http://127.0.0.1:8000/mcp"]
    assert "Authorization:${MCP_REMOTE_AUTH_HEADER}" in snippet.entry["args"]
    assert any("mcp-remote" in w for w in snippet.warnings)


def test_hosts_without_env_syntax_get_placeholders_and_a_warning(manifest: Manifest) -> None:
    for key in ("claude-desktop", "cline", "zed", "lmstudio"):
        target = make_target(
            manifest, POSIX_ROOT, "stdio", launcher="venv", facts=MachineFacts("linux")
        )
        snippet = get_host(key).render(target)
        assert snippet.entry["env"]["WEATHER_TOKEN"] == "<WEATHER_TOKEN>"
        assert any("<WEATHER_TOKEN>" in w for w in snippet.warnings)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("claude-code", "${WEATHER_TOKEN}"),
        ("cursor", "${env:WEATHER_TOKEN}"),
        ("roo", "${env:WEATHER_TOKEN}"),
        ("windsurf", "${env:WEATHER_TOKEN}"),
        ("gemini", "${WEATHER_TOKEN}"),
        ("kiro", "${WEATHER_TOKEN}"),
        ("copilot-cli", "${WEATHER_TOKEN}"),
        ("vscode", "${input:weather-weather-token}"),
    ],
)
def test_env_reference_syntax(manifest: Manifest, key: str, expected: str) -> None:
    target = make_target(
        manifest, POSIX_ROOT, "stdio", launcher="venv", facts=MachineFacts("linux")
    )
    env = get_host(key).entry(target)["env"]
    assert env["WEATHER_TOKEN"] == expected
    assert "WEATHER_UNITS" not in env and "WEATHER_DEBUG" not in env  # optional: README only


def test_name_based_hosts(manifest: Manifest) -> None:
    stdio = make_target(manifest, POSIX_ROOT, "stdio", launcher="venv", facts=MachineFacts("linux"))
    http = make_target(
        manifest,
        POSIX_ROOT,
        "http",
        launcher="venv",
        facts=MachineFacts("linux"),
        bearer_env="WEATHER_TOKEN",
    )
    assert get_host("codex").entry(stdio)["env_vars"] == ["WEATHER_TOKEN", "WEATHER_REGION"]
    assert get_host("codex").entry(http) == {
        "url": "http://127.0.0.1:8000/mcp",
        "bearer_token_env_var": "WEATHER_TOKEN",
    }
    assert get_host("goose").entry(stdio)["env_keys"] == ["WEATHER_TOKEN", "WEATHER_REGION"]
    assert (
        get_host("opencode").entry(stdio)["environment"]["WEATHER_TOKEN"] == "{env:WEATHER_TOKEN}"
    )
    assert (
        get_host("continue").entry(stdio)["env"]["WEATHER_TOKEN"] == "${{ secrets.WEATHER_TOKEN }}"
    )
