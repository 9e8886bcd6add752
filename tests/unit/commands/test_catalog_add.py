"""`mcpgen add resource|prompt`: the manifest gains an entry, its comments and layout kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.commands.add import append_to_manifest, prompt_entry, resource_entry
from mcpgen.errors import ManifestInvalid, McpgenError
from mcpgen.manifest.append import append_entry

BASE = """\
name: demo   # the server
version: 0.1.0
tools: []
# resources follow
resources:
  - uri: a://one      # first
    name: one
    text: hi
"""


def test_append_to_an_existing_block_keeps_comments() -> None:
    text = append_entry(BASE, "resources", resource_entry("two", "a://two", "Two", None), "r")
    assert text.startswith(BASE)
    assert text[len(BASE) :] == "  - uri: a://two\n    name: two\n    description: Two\n"


def test_a_missing_key_is_added_at_the_end() -> None:
    text = append_entry(BASE, "prompts", prompt_entry("p", None, "Hello"), "prompt")
    assert text == BASE + "prompts:\n  - name: p\n    template: Hello\n"


def test_a_flow_list_grows_in_flow_style() -> None:
    text = "name: d\nversion: 0.1.0\ntools: []\nprompts: [{name: a}]\n"
    assert append_entry(text, "prompts", {"name": "b"}, "prompt") == (
        "name: d\nversion: 0.1.0\ntools: []\nprompts: [{name: a}, {name: b}]\n"
    )


def test_a_taken_name_or_an_invalid_entry_leaves_the_file_unchanged(tmp_path: Path) -> None:
    manifest = tmp_path / "mcpgen.yaml"
    manifest.write_text(BASE, encoding="utf-8")
    with pytest.raises(McpgenError, match="already has a resource named 'one'"):
        append_to_manifest(
            manifest, "resources", resource_entry("one", "a://x", None, "t"), "resource"
        )
    with pytest.raises(ManifestInvalid):
        append_to_manifest(
            manifest, "resources", resource_entry("two", "a://one", None, "t"), "resource"
        )
    assert manifest.read_text(encoding="utf-8") == BASE
    append_to_manifest(manifest, "prompts", prompt_entry("greet", "Greets", None), "prompt")
    assert manifest.read_text(encoding="utf-8").endswith(
        "prompts:\n  - name: greet\n    description: Greets\n"
    )
