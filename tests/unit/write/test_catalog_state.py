"""The state file's `catalog` section: byte-stable, read back as written, untrusted paths
refused; and what the plan summary makes of two runs' entries (in memory, no disk)."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgen.errors import McpgenError
from mcpgen.generation.catalog_changes import keep_catalog_python_names, summarise_catalog
from mcpgen.manifest.model import Manifest, build_manifest
from mcpgen.render.plan import render_plan
from mcpgen.write.state import parse_state, render_state, snapshot

PING = {"name": "ping", "input_schema": {"type": "object"}}


def _manifest(**sections: Any) -> Manifest:
    return build_manifest({"name": "demo", "version": "0.1.0", "tools": [PING], **sections})


def _prompt(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "arguments": [{"name": "topic", "completions": "handler"}], **extra}


def test_a_tools_only_state_has_no_catalog_section() -> None:
    manifest = _manifest()
    assert '"catalog"' not in render_state(snapshot(manifest, render_plan(manifest)))


def test_the_catalog_section_reads_back_as_written() -> None:
    manifest = _manifest(prompts=[_prompt("brief")], resources=[{"uri": "a://b", "name": "b"}])
    text = render_state(snapshot(manifest, render_plan(manifest)))
    state = parse_state(text)
    assert render_state(state) == text
    record = state.catalog[("prompt", "brief")]
    assert record.user_files == {
        "handler": "src/demo/handlers/brief.py",
        "complete topic": "src/demo/handlers/complete_brief_topic.py",
    }


def test_a_catalog_path_outside_the_project_is_refused() -> None:
    manifest = _manifest(prompts=[_prompt("brief")])
    text = render_state(snapshot(manifest, render_plan(manifest)))
    hostile = text.replace('"src/demo/handlers/brief.py"', '"../../etc/passwd"')
    with pytest.raises(McpgenError, match=r"state\.json"):
        parse_state(hostile)


def test_kinds_are_separate_namespaces() -> None:
    before = _manifest(prompts=[_prompt("notes")])
    after = _manifest(
        prompts=[_prompt("notes")], resources=[{"uri": "n://all", "name": "notes", "text": "x"}]
    )
    previous = snapshot(before, render_plan(before))
    summary = summarise_catalog(previous, after, render_plan(after))
    assert summary.added == (("resource", "notes"),) and not summary.renamed


def test_a_new_name_with_the_same_module_is_a_rename() -> None:
    before = _manifest(prompts=[_prompt("daily-brief")])
    after = _manifest(prompts=[_prompt("daily_brief")])
    previous = snapshot(before, render_plan(before))
    summary = summarise_catalog(previous, after, render_plan(after))
    (rename,) = summary.renamed
    assert (rename.old, rename.new, rename.reason) == (
        "daily-brief",
        "daily_brief",
        "same handler module",
    )
    assert not summary.added and not summary.removed and not rename.moves


def test_a_renamed_entry_keeps_its_python_name_unless_written_out() -> None:
    before = _manifest(prompts=[_prompt("brief")])
    previous = snapshot(before, render_plan(before))
    after = _manifest(prompts=[_prompt("digest", renamed_from="brief")])
    kept = keep_catalog_python_names(after, previous, explicit=())
    assert kept.prompts[0].python_name == "brief"
    chosen = keep_catalog_python_names(after, previous, explicit={("prompt", "digest")})
    assert chosen.prompts[0].python_name == "digest"
