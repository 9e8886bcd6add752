"""Sync with the spec: an imported project (the Train Travel API, OpenAPI 3.1) whose manifest
carries overrides (a renamed, re-described tool; a tool on a hand-written handler) and whose
tree carries user files; then the spec file inside the project is edited three ways — a
parameter added, an operation removed, a response field's type changed.

`mcpgen generate --check` goes stale; `mcpgen generate` shows a plan naming each of the three
changes (and that the removal and the type change break existing clients), keeps every
override and every user file byte for byte, and leaves a tree `--check` finds current.
Run with `-s` to see the plan."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.support.openapi_project import import_project, manifest
from tests.support.openapi_specs import BY_KEY
from tests.support.project_venv import raw_tools_list, run_mcpgen

TRAIN = BY_KEY["train_travel"]
pytestmark = pytest.mark.skipif(bool(TRAIN.missing()), reason=TRAIN.missing())

UNUSED_UPSTREAM = "http://127.0.0.1:9"  # nothing is called here
RENAMED = {"name": "find_trips", "description": "Trips between two stations on a date."}
USER_NOTE = "# Notes the user keeps beside the generated code.\n"
HANDLER_EDIT = "\n# The user's own change to the hand-written handler.\n"


def _round_trip() -> YAML:
    yaml = YAML()
    yaml.preserve_quotes = True
    return yaml


def _add_overrides(root: Path) -> None:
    """The user's overrides, written into the manifest's openapi source."""
    yaml = _round_trip()
    path = root / "mcpgen.yaml"
    document = yaml.load(path.read_text(encoding="utf-8"))
    source = document["openapi"][0]
    overrides = source.setdefault("overrides", {})
    overrides["get-trips"] = dict(RENAMED)
    overrides["get-booking"] = {"handler": "custom"}
    with path.open("w", encoding="utf-8") as sink:
        yaml.dump(document, sink)


def _edit_spec(spec: Path) -> None:
    """The publisher's three edits."""
    document: dict[str, Any] = json.loads(spec.read_text(encoding="utf-8-sig"))
    stations = document["paths"]["/stations"]["get"]
    stations.setdefault("parameters", []).append(
        {
            "name": "country",
            "in": "query",
            "description": "Only the stations of this country (ISO 3166-1 alpha-2).",
            "schema": {"type": "string"},
        }
    )
    del document["paths"]["/bookings/{bookingId}"]["delete"]
    document["components"]["schemas"]["Station"]["properties"]["name"] = {
        "type": "integer",
        "description": "The station's number.",
    }
    spec.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def _package(root: Path) -> Path:
    [package] = [p for p in (root / "src").iterdir() if p.is_dir() and not p.name.endswith("info")]
    return package


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_a_spec_edited_three_ways_regenerates_with_a_truthful_plan(tmp_path: Path) -> None:
    root = import_project(TRAIN.file, tmp_path / "openapi_sync", UNUSED_UPSTREAM)
    _add_overrides(root)
    run_mcpgen("generate", str(root))
    package = _package(root)
    handler = next((package / "handlers").glob("*booking*.py"))
    handler.write_text(handler.read_text(encoding="utf-8") + HANDLER_EDIT, encoding="utf-8")
    (package / "user_notes.py").write_text(USER_NOTE, encoding="utf-8")
    (root / "NOTES.md").write_text(USER_NOTE, encoding="utf-8")
    assert run_mcpgen("generate", "--check", str(root), check=False).returncode == 0
    before = _tree(root)
    manifest_before = (root / "mcpgen.yaml").read_bytes()

    spec = root / manifest(root)["openapi"][0]["spec"]
    _edit_spec(spec)
    stale = run_mcpgen("generate", "--check", str(root), check=False)
    assert stale.returncode != 0, "--check found the tree current after the spec changed"

    done = run_mcpgen("generate", str(root))
    plan = done.stdout + done.stderr
    print(f"\nthe plan after the spec's three edits:\n{plan}")
    after = _tree(root)
    assert (root / "mcpgen.yaml").read_bytes() == manifest_before, "the manifest was rewritten"
    for kept in (handler, package / "user_notes.py", root / "NOTES.md"):
        name = kept.relative_to(root).as_posix()
        assert after[name] == before[name], f"{name} changed"
    tools = {t["name"]: t for t in _listed_tools(root)}
    assert "find_trips" in tools and tools["find_trips"]["description"] == RENAMED["description"]
    assert not any("delete" in name for name in tools), sorted(tools)
    assert run_mcpgen("generate", "--check", str(root), check=False).returncode == 0
    assert not _untold(plan), "the plan does not tell:\n" + "\n".join(_untold(plan))


def _untold(plan: str) -> list[str]:
    """What the plan should say about the three edits and does not."""
    lines = plan.splitlines()
    removed = next((line for line in lines if "delete_booking" in line), "")
    changed_type = [line for line in lines if "name" in line and "integer" in line.lower()]
    untold = []
    if not any("country" in line and "added" in line for line in lines):
        untold.append("the argument `country` added to get_stations")
    if "removed" not in removed:
        untold.append("the tool delete_booking removed")
    elif "break" not in removed.lower():
        untold.append("that removing delete_booking breaks existing clients")
    if not changed_type:
        untold.append("the result field data[].name of get_stations now an integer (was a string)")
    elif not any("break" in line.lower() for line in changed_type):
        untold.append("that the result field's new type breaks existing clients")
    if "handler is kept" in removed:
        untold.append("(and it says delete_booking's handler is kept: a bound tool has none)")
    return untold


def _listed_tools(root: Path) -> list[dict[str, Any]]:
    """tools/list of the regenerated server, run from its source tree."""
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    return raw_tools_list([sys.executable, "-m", _package(root).name], env)


def test_fixture_spec_is_not_edited_in_place(tmp_path: Path) -> None:
    """The import copies the spec into the project: editing the copy leaves the package's."""
    original = TRAIN.file.read_bytes()
    root = import_project(TRAIN.file, tmp_path / "openapi_copy", UNUSED_UPSTREAM)
    copied = root / manifest(root)["openapi"][0]["spec"]
    assert copied.resolve() != TRAIN.file.resolve()
    shutil.copyfile(copied, tmp_path / "kept.json")
    _edit_spec(copied)
    assert TRAIN.file.read_bytes() == original
