"""`mcpgen validate` warns (exit 0, located) when one tool's tools/list entry is over 8 KB
or the whole list over 64 KB."""

from __future__ import annotations

from pathlib import Path

from mcpgen.manifest.list_size import entry_bytes
from tests.support.cli_runner import run_cli

VALUES = ", ".join(f"c{i:04d}" for i in range(1200))  # about 9.5 KB of enum


def manifest(big: int) -> str:
    tools = [
        f"  - name: tool{n}\n"
        "    description: Look a city up.\n"
        "    input_schema:\n"
        "      type: object\n"
        "      properties:\n"
        f"        city: {{type: string, description: The city., enum: [{VALUES}]}}\n"
        for n in range(big)
    ]
    small = "  - name: small\n    description: Small.\n    input_schema: {type: object}\n"
    return "name: demo\nversion: 0.1.0\ntools:\n" + "".join(tools) + small


def warnings(folder: Path, text: str) -> list[str]:
    (folder / "mcpgen.yaml").write_text(text, encoding="utf-8")
    done = run_cli("validate", cwd=folder)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stderr.splitlines() if "bytes, over" in line]


def test_an_entry_over_8_kb_is_located(tmp_path: Path) -> None:
    (line,) = warnings(tmp_path, manifest(1))
    assert line == (
        "mcpgen.yaml:4:5: tools[0] (tool0): warning: this tool's tools/list entry is 9,755 "
        "bytes, over 8 KB: hosts may cut or drop it, and it fills the model's context on every "
        "request; shorten its description and schemas"
    )


def test_a_list_over_64_kb_is_located_at_tools(tmp_path: Path) -> None:
    found = warnings(tmp_path, manifest(7))
    assert len(found) == 8
    assert found[0].startswith("mcpgen.yaml:3:1: tools: warning: tools/list is 68,")
    assert "over 64 KB" in found[0] and "--toolsets" in found[0]


def test_small_entries_pass_quietly(tmp_path: Path) -> None:
    assert warnings(tmp_path, manifest(0)) == []


def test_an_entry_is_measured_as_published() -> None:
    tool = {"name": "t", "input_schema": {"type": "object"}, "tags": ["x"], "timeout": 3}
    assert entry_bytes(tool) == len('{"name":"t","inputSchema":{"type":"object"}}')
