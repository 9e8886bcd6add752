"""What `mcpgen dev` counts as a change, and what it ignores (the files generate writes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcpgen.commands.dev import ChangeFeed, SourceFilter, describe, inspector_command


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/demo/handlers/greet.py", "source"),
        ("src/demo/helpers/text.py", "source"),
        ("openapi/github.json", "manifest"),
        ("openapi/nested/spec.yaml", "manifest"),
        ("src/demo/_generated/models.py", None),
        ("src/demo/_runtime/dispatch/dispatcher.py", None),
        ("src/demo/__pycache__/greet.cpython-311.pyc", None),
        ("src/demo/handlers/notes.txt", None),
        ("src/demo/written_by_generate.py", None),
        ("tests/test_greet.py", None),
        (".venv/lib/site.py", None),
    ],
)
def test_each_path_counts_as(tmp_path: Path, path: str, kind: str | None) -> None:
    source_filter = SourceFilter(tmp_path, frozenset({"src/demo/written_by_generate.py"}))
    assert source_filter.classify(str(tmp_path / path)) == kind


def test_outside_the_project_nothing_counts(tmp_path: Path) -> None:
    assert SourceFilter(tmp_path / "a", frozenset()).classify(str(tmp_path / "b/x.py")) is None


def test_a_change_the_running_server_already_read_is_spent(tmp_path: Path) -> None:
    handler = tmp_path / "h.py"
    handler.write_text("x = 1\n")
    os.utime(handler, (1000, 1000))
    feed = ChangeFeed(tmp_path, tmp_path / "mcpgen.yaml")
    feed.changes.put(("source", str(handler)))
    assert feed.next_batch(0, since=2000) == set()
    feed.changes.put(("source", str(handler)))
    feed.changes.put(("manifest", None))
    assert feed.next_batch(0, since=500) == {"source", "manifest"}
    feed.changes.put(("source", str(tmp_path / "removed.py")))
    assert feed.next_batch(0, since=2000) == {"source"}


def test_words() -> None:
    assert describe({"source", "manifest"}) == "the manifest or an imported spec and the source"
    assert inspector_command(8123) == (
        "npx @modelcontextprotocol/inspector --transport http "
        "--server-url http://127.0.0.1:8123/mcp"
    )
