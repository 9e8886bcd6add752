"""The plan summary: added, removed, renamed (explicit or same module), changed; orphans."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from mcpgen.core.header import GENERATED_HEADER
from mcpgen.generation.changes import find_old_packages, find_orphans, summarise
from mcpgen.manifest.model import Manifest, build_manifest
from mcpgen.render.plan import PlannedFile, RenderPlan
from mcpgen.write.apply import Move
from mcpgen.write.state import State, snapshot
from tests.support.corpus import real_files
from tests.support.in_memory import manifest_of, tool, write_tree

STR = {"type": "string"}


def _plan(manifest: Manifest) -> RenderPlan:
    files: list[PlannedFile] = [PlannedFile("src/demo/_generated/tools.py", "", "generated")]
    for t in manifest.tools:
        files.append(PlannedFile(f"src/demo/handlers/{t.python_name}.py", "", "user", t.name))
        files.append(PlannedFile(f"tests/test_{t.python_name}.py", "", "user", t.name))
    return RenderPlan(tuple(files))


def _state(manifest: Manifest) -> State:
    return snapshot(manifest, _plan(manifest))


def _summary(before: Manifest, after: Manifest):  # type: ignore[no-untyped-def]
    return summarise(_state(before), after, _plan(after))


def test_first_run_lists_every_tool_as_added() -> None:
    manifest = manifest_of(tool("a"), tool("b"))
    summary = summarise(None, manifest, _plan(manifest))
    assert summary.first_run and summary.added == ("a", "b")


def test_nothing_changed() -> None:
    manifest = manifest_of(tool("a", {"x": STR}))
    assert _summary(manifest, manifest).empty


def test_added_and_removed() -> None:
    summary = _summary(manifest_of(tool("a"), tool("b")), manifest_of(tool("a"), tool("c")))
    assert summary.added == ("c",) and summary.removed == ("b",) and not summary.renamed


def test_explicit_rename_moves_handler_and_user_test() -> None:
    summary = _summary(manifest_of(tool("old")), manifest_of(tool("new", renamed_from="old")))
    assert not summary.added and not summary.removed
    (rename,) = summary.renamed
    assert (rename.old, rename.new, rename.reason) == ("old", "new", "renamed_from")
    assert rename.moves == (
        Move("src/demo/handlers/old.py", "src/demo/handlers/new.py"),
        Move("tests/test_old.py", "tests/test_new.py"),
    )


def test_same_handler_module_is_a_rename_without_moves() -> None:
    summary = _summary(manifest_of(tool("get-data")), manifest_of(tool("get_data")))
    (rename,) = summary.renamed
    assert rename.reason == "same handler module" and rename.moves == ()


def test_python_name_change_moves_handler() -> None:
    summary = _summary(manifest_of(tool("a")), manifest_of(tool("a", python_name="b")))
    (rename,) = summary.renamed
    assert rename.reason == "python_name"
    assert Move("src/demo/handlers/a.py", "src/demo/handlers/b.py") in rename.moves


def test_schema_and_description_changes_are_listed() -> None:
    before = manifest_of(tool("a", {"x": STR}, description="one"))
    after = manifest_of(tool("a", {"x": STR, "y": STR}, required=["y"], description="two"))
    (change,) = _summary(before, after).changed
    assert [c.text for c in change.breaking] == ["argument `y` added, required"]
    assert "description changed" in [c.text for c in change.changes]


def test_rename_with_schema_change_reports_both() -> None:
    before = manifest_of(tool("old", {"x": STR}))
    after = manifest_of(tool("new", {"x": {"type": "integer"}}, renamed_from=["old"]))
    summary = _summary(before, after)
    assert summary.renamed[0].new == "new"
    assert summary.changed[0].breaking[0].text.startswith("argument `x` changed type")


def test_orphans_are_handlers_no_tool_owns(tmp_path: Path) -> None:
    manifest = manifest_of(tool("a"))
    write_tree(
        tmp_path,
        {
            "src/demo/handlers/__init__.py": "",
            "src/demo/handlers/_helpers.py": "",
            "src/demo/handlers/a.py": "",
            "src/demo/handlers/gone.py": "",
            "src/demo/handlers/moving.py": "",
        },
    )
    orphans = find_orphans(
        tmp_path, manifest, _plan(manifest), leaving=["src/demo/handlers/moving.py"]
    )
    assert orphans == ("src/demo/handlers/gone.py",)


def _widened(schema: Any) -> Any:
    """Every typed field also allows null, and each open object loses its last field: what
    the handler returns today still fits."""
    if isinstance(schema, list):
        return [_widened(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    found = {key: _widened(value) for key, value in schema.items()}
    if isinstance(found.get("type"), str) and found["type"] != "null":
        found["type"] = [found["type"], "null"]
    properties = found.get("properties")
    if isinstance(properties, dict) and properties and found.get("additionalProperties") is None:
        last = list(properties)[-1]
        found["properties"] = {k: v for k, v in properties.items() if k != last}
        found["required"] = [r for r in found.get("required", []) if r != last]
    return found


def _corpus_tools_with_output() -> list[dict[str, Any]]:
    tools = []
    for path in real_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data["tools"] if isinstance(data, dict) else data:
            if entry.get("outputSchema"):
                tools.append({"name": entry["name"], **{k: entry[k] for k in SCHEMAS}})
    return tools


SCHEMAS = ("inputSchema", "outputSchema")


def test_wider_results_and_fields_dropped_from_open_results_break_no_handler() -> None:
    tools = _corpus_tools_with_output()
    assert len(tools) > 100
    unique = {t["name"]: t for t in tools}.values()  # a name used by two servers: one tool
    before = build_manifest({"name": "demo", "version": "1.0.0", "tools": list(unique)})
    after_tools = [{**t, "outputSchema": _widened(t["outputSchema"])} for t in unique]
    after = build_manifest({"name": "demo", "version": "1.0.0", "tools": after_tools})
    summary = _summary(before, after)
    assert len(summary.changed) > 100
    breaking = [f"{c.tool}: {b.text}" for c in summary.changed for b in c.breaking]
    assert breaking == []


def test_a_fifo_in_a_folder_that_looks_generated_does_not_hang_the_search(tmp_path: Path) -> None:
    folder = tmp_path / "src/legacy/_generated"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "a.py")
    (folder / "b.py").write_text(GENERATED_HEADER + "\n")
    assert find_old_packages(tmp_path, "demo") == ("src/legacy",)
