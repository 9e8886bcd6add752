"""Strict structural checks of each host's snippet, written from host-configs.md.

No host publishes a JSON Schema that is available offline (opencode's `$schema` URL is
online only), so each check lists the keys the host documents and the values it requires.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from typing import Any

from ruamel.yaml import YAML

from mcpgen.hosts import jsonc

Check = Callable[[Any, str], None]

STDIO_KEYS = {"command", "args", "env"}


def parse(fmt: str, text: str) -> Any:
    """Parse with the real parser the host uses (strict JSON where the host is strict)."""
    if fmt == "json":
        return json.loads(text)
    if fmt == "jsonc":
        return jsonc.loads(text, jsonc=True)
    if fmt == "toml":
        return tomllib.loads(text)
    return YAML(typ="safe", pure=True).load(text)


def _only(entry: dict[str, Any], allowed: set[str], host: str) -> None:
    unknown = set(entry) - allowed
    assert not unknown, f"{host}: undocumented keys {unknown}"


def _str_map(value: Any) -> None:
    assert isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


def _one(doc: dict[str, Any], root: str, name: str) -> dict[str, Any]:
    assert isinstance(doc[root], dict)
    entry = doc[root][name]
    assert isinstance(entry, dict)
    return entry


def _stdio(entry: dict[str, Any]) -> None:
    assert isinstance(entry["command"], str) and entry["command"]
    assert isinstance(entry["args"], list) and all(isinstance(a, str) for a in entry["args"])
    if "env" in entry:
        _str_map(entry["env"])


def mcp_servers(
    stdio_extra: set[str],
    http_keys: set[str],
    *,
    http_type: str | None = None,
    stdio_type: str | None = None,
    url_key: str = "url",
    root: str = "mcpServers",
) -> Check:
    def check(doc: Any, name: str) -> None:
        entry = _one(doc, root, name)
        if url_key in entry:
            _only(entry, http_keys | {url_key}, name)
            assert entry[url_key].startswith("http")
            if http_type is not None:
                assert entry["type"] == http_type
            if "headers" in entry:
                _str_map(entry["headers"])
        else:
            _only(entry, STDIO_KEYS | stdio_extra, name)
            _stdio(entry)
            if stdio_type is not None:
                assert entry["type"] == stdio_type

    return check


def claude_desktop(doc: Any, name: str) -> None:
    entry = _one(doc, "mcpServers", name)
    assert "url" not in entry and "type" not in entry  # remote entries break the app
    _only(entry, STDIO_KEYS, name)
    _stdio(entry)


def vscode(doc: Any, name: str) -> None:
    _only(doc, {"servers", "inputs"}, name)
    entry = _one(doc, "servers", name)
    ids = {i["id"] for i in doc.get("inputs", [])}
    for item in doc.get("inputs", []):
        assert item["type"] == "promptString" and item["password"] is True
    refs = set()
    for value in json.dumps(entry).split("${input:")[1:]:
        refs.add(value.split("}")[0])
    assert refs <= ids, "every ${input:id} has its input"
    if entry["type"] == "http":
        _only(entry, {"type", "url", "headers"}, name)
    else:
        assert entry["type"] == "stdio"
        _only(entry, STDIO_KEYS | {"type", "envFile"}, name)
        _stdio(entry)


def zed(doc: Any, name: str) -> None:
    entry = _one(doc, "context_servers", name)
    if "url" in entry:
        _only(entry, {"url", "headers"}, name)
    else:
        _only(entry, STDIO_KEYS | {"enabled"}, name)
        _stdio(entry)
        assert "args" in entry and "env" in entry


def codex(doc: Any, name: str) -> None:
    entry = _one(doc, "mcp_servers", name)
    if "url" in entry:
        _only(entry, {"url", "bearer_token_env_var", "http_headers", "env_http_headers"}, name)
        assert "bearer_token" not in entry
    else:
        _only(entry, {"command", "args", "env", "env_vars", "cwd"}, name)
        _stdio(entry)
        assert all(v.isidentifier() for v in entry.get("env_vars", []))


def gemini(doc: Any, name: str) -> None:
    entry = _one(doc, "mcpServers", name)
    if "httpUrl" in entry:
        _only(entry, {"httpUrl", "headers"}, name)
    else:
        _only(entry, STDIO_KEYS | {"cwd"}, name)
        _stdio(entry)


def continue_(doc: Any, name: str) -> None:
    assert doc["schema"] == "v1" and doc["name"] and doc["version"]
    (entry,) = doc["mcpServers"]
    assert entry["name"] == name
    if entry["type"] == "streamable-http":
        _only(entry, {"name", "type", "url", "requestOptions"}, name)
        assert "headers" not in entry  # ignored by Continue on YAML entries
    else:
        assert entry["type"] == "stdio"
        _only(entry, STDIO_KEYS | {"name", "type", "cwd"}, name)
        _stdio(entry)


def goose(doc: Any, name: str) -> None:
    entry = _one(doc, "extensions", name)
    assert entry["enabled"] is True and entry["name"] == name
    assert isinstance(entry["description"], str)
    if entry["type"] == "streamable_http":
        _only(
            entry,
            {
                "enabled",
                "type",
                "name",
                "description",
                "uri",
                "headers",
                "envs",
                "env_keys",
                "timeout",
            },
            name,
        )
    else:
        assert entry["type"] == "stdio"
        _only(
            entry,
            {
                "enabled",
                "type",
                "name",
                "description",
                "cmd",
                "args",
                "envs",
                "env_keys",
                "timeout",
            },
            name,
        )
        assert isinstance(entry["args"], list) and isinstance(entry["envs"], dict)


def opencode(doc: Any, name: str) -> None:
    assert doc["$schema"] == "https://opencode.ai/config.json"
    entry = _one(doc, "mcp", name)
    if entry["type"] == "remote":
        _only(entry, {"type", "url", "headers", "oauth", "enabled", "timeout"}, name)
    else:
        assert entry["type"] == "local"
        _only(entry, {"type", "command", "environment", "enabled", "timeout"}, name)
        assert isinstance(entry["command"], list), "opencode rejects a string command"
        assert "${" not in json.dumps(entry), "opencode substitution has no $"


VALIDATORS: dict[str, Check] = {
    "claude-desktop": claude_desktop,
    "claude-code": mcp_servers({"type"}, {"type", "headers"}, http_type="http", stdio_type="stdio"),
    "cline": mcp_servers(
        {"disabled", "autoApprove", "cwd"},
        {"type", "headers", "disabled", "autoApprove"},
        http_type="streamableHttp",
    ),
    "roo": mcp_servers(
        {"disabled", "alwaysAllow", "cwd"}, {"type", "headers"}, http_type="streamable-http"
    ),
    "cursor": mcp_servers({"type", "envFile"}, {"headers"}, stdio_type="stdio"),
    "vscode": vscode,
    "windsurf": mcp_servers(set(), {"headers"}, url_key="serverUrl"),
    "zed": zed,
    "codex": codex,
    "gemini": gemini,
    "continue": continue_,
    "goose": goose,
    "opencode": opencode,
    "lmstudio": mcp_servers(set(), {"headers"}),
    "kiro": mcp_servers({"disabled", "autoApprove"}, {"headers", "disabled"}),
    "copilot-cli": mcp_servers(
        {"type", "tools"}, {"type", "headers", "tools"}, http_type="http", stdio_type="local"
    ),
}
