"""The catalog sync code under attack, through the real `mcpgen` commands on real files: a
cloned repository's hostile `.mcpgen/state.json` catalog section, and manifests whose renames
fight each other. Every attack must end in a clear located error or a correct run: no
traceback, nothing written on refusal, never a byte of the user's handlers lost."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_runner import Ran, run_cli
from tests.support.in_memory import snapshot_tree

HANDLERS = "src/notes/handlers"
STATE = ".mcpgen/state.json"
MANIFEST = """\
name: notes
version: 0.1.0
tools:
  - name: ping
    description: Answers pong.
    input_schema: {type: object}
resources:
  - uri: notes://index
    name: index
    description: Every note.
prompts:
  - name: summarize
    arguments:
      - {name: note_id, required: true, completions: handler}
  - name: outline
    arguments:
      - {name: topic, required: true}
"""
MINE = "# mine: every byte of this file is the user's\n"
COMMANDS = (
    ["generate"],
    ["generate", "--force"],
    ["generate", "--check"],
    ["generate", "--diff"],
    ["check"],
)


def _cli(root: Path, *args: str) -> Ran:
    return run_cli(*args, str(root))


def _edit(root: Path, old: str, new: str) -> None:
    text = (root / "mcpgen.yaml").read_text(encoding="utf-8")
    assert old in text, old
    (root / "mcpgen.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")


def _edit_state(root: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = root / STATE
    state = json.loads(path.read_text(encoding="utf-8"))
    change(state)
    path.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n", encoding="utf-8")


@pytest.fixture
def notes_project(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    done = _cli(root, "generate")
    assert done.returncode == 0, done.stderr
    for module in ("summarize", "outline", "index", "complete_summarize_note_id"):
        (root / HANDLERS / f"{module}.py").write_text(f"{MINE}# {module}\n", encoding="utf-8")
    return root


def _assert_refused(project: Path, located: str) -> None:
    """Every command refuses with an error located in the state file; nothing changes."""
    before = snapshot_tree(project)
    for args in COMMANDS:
        done = _cli(project, *args)
        assert done.returncode != 0, (args, done.stdout, done.stderr)
        assert located in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr
        assert snapshot_tree(project) == before, args


def _prompt(state: dict[str, Any], name: str = "summarize") -> dict[str, Any]:
    record: dict[str, Any] = state["catalog"]["prompt"][name]
    return record


@pytest.mark.parametrize(
    ("label", "change"),
    [
        ("catalog a list", lambda s: s.update(catalog=[])),
        ("kind a string", lambda s: s["catalog"].update(prompt="x")),
        ("entry null", lambda s: s["catalog"]["prompt"].update(summarize=None)),
        ("view a string", lambda s: _prompt(s).update(view="x")),
        ("view a number", lambda s: _prompt(s).update(view=7)),
        ("user_files a list", lambda s: _prompt(s).update(user_files=["a.py"])),
        ("python_name missing", lambda s: _prompt(s).pop("python_name")),
        ("python_name a dict", lambda s: _prompt(s).update(python_name={"a": 1})),
        ("python_name a number", lambda s: _prompt(s).update(python_name=12)),
        ("python_name a path", lambda s: _prompt(s).update(python_name="../../../evil")),
        ("python_name code", lambda s: _prompt(s).update(python_name="x; import os")),
        ("role path a number", lambda s: _prompt(s)["user_files"].update(handler=5)),
        ("role path null", lambda s: _prompt(s)["user_files"].update(handler=None)),
    ],
)
def test_a_catalog_section_of_the_wrong_shape_is_a_located_error(
    notes_project: Path, label: str, change: Callable[[dict[str, Any]], None]
) -> None:
    _edit_state(notes_project, change)
    _assert_refused(notes_project, STATE)


@pytest.mark.parametrize(
    "path",
    ["../outside.py", "/etc/passwd", "src/notes/../../../outside.py", "src\\notes\\x.py", ""],
)
def test_a_catalog_handler_path_outside_the_project_is_refused(
    notes_project: Path, path: str
) -> None:
    _edit_state(notes_project, lambda s: _prompt(s)["user_files"].update(handler=path))
    _assert_refused(notes_project, STATE)


def test_a_catalog_handler_path_through_a_symlink_out_of_the_project_is_refused(
    notes_project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "summarize.py"
    victim.write_text("victim\n", encoding="utf-8")
    (notes_project / "escape").symlink_to(outside, target_is_directory=True)
    _edit_state(
        notes_project, lambda s: _prompt(s)["user_files"].update(handler="escape/summarize.py")
    )
    _edit(notes_project, "  - name: summarize\n", "  - name: digest\n    renamed_from: summarize\n")
    _edit(notes_project, "completions: handler}", "completions: handler}\n    python_name: digest")
    for args in COMMANDS:
        done = _cli(notes_project, *args)
        assert "Traceback" not in done.stderr
        assert victim.read_text(encoding="utf-8") == "victim\n", args
        if done.returncode == 0 and args[-1] not in ("--check", "--diff") and args != ["check"]:
            pytest.fail(f"{args}: moved a file through a symlink out of the project")
    assert (notes_project / HANDLERS / "summarize.py").read_text(encoding="utf-8").startswith(MINE)


def test_a_huge_nested_view_is_a_located_error_not_a_crash(notes_project: Path) -> None:
    text = (notes_project / STATE).read_text(encoding="utf-8")
    deep = "[" * 200_000 + "]" * 200_000
    (notes_project / STATE).write_text(text.replace('"view": {', f'"deep": {deep}, "view": {{', 1))
    _assert_refused(notes_project, STATE)


def test_a_huge_view_value_is_compared_without_harm(notes_project: Path) -> None:
    _edit_state(notes_project, lambda s: _prompt(s)["view"].update(template="x" * 5_000_000))
    done = _cli(notes_project, "generate")
    assert done.returncode == 0, done.stderr
    assert "summarize" in done.stderr
    assert (notes_project / HANDLERS / "summarize.py").read_text(encoding="utf-8").startswith(MINE)


def test_a_duplicate_name_in_the_state_file_is_harmless(notes_project: Path) -> None:
    text = (notes_project / STATE).read_text(encoding="utf-8")
    first = text.index('"summarize": {')
    (notes_project / STATE).write_text(
        text[:first]
        + '"summarize": {"python_name": "evil", "view": {}, "user_files": {}},\n'
        + text[first:],
        encoding="utf-8",
    )
    done = _cli(notes_project, "generate")
    assert done.returncode == 0, done.stderr
    assert (notes_project / HANDLERS / "summarize.py").read_text(encoding="utf-8").startswith(MINE)


def test_an_unknown_kind_in_the_state_file_is_ignored_or_refused(notes_project: Path) -> None:
    _edit_state(notes_project, lambda s: s["catalog"].update(tool={"ping": _prompt(s)}))
    done = _cli(notes_project, "generate")
    assert "Traceback" not in done.stderr
    assert (notes_project / HANDLERS / "summarize.py").read_text(encoding="utf-8").startswith(MINE)


def test_a_handler_path_that_is_a_directory_keeps_every_byte(notes_project: Path) -> None:
    """The recorded handler is a folder now: a rename must not move it, nor crash."""
    (notes_project / HANDLERS / "summarize.py").unlink()
    (notes_project / HANDLERS / "summarize.py").mkdir()
    (notes_project / HANDLERS / "summarize.py" / "keep.txt").write_text("keep\n", encoding="utf-8")
    for args in COMMANDS:
        done = _cli(notes_project, *args)
        assert "Traceback" not in done.stderr, args
    assert (notes_project / HANDLERS / "summarize.py" / "keep.txt").read_text() == "keep\n"


def test_a_state_path_to_a_project_file_is_not_moved_onto_a_handler(notes_project: Path) -> None:
    """A hostile state names the manifest as a prompt's handler, then the prompt is renamed
    with a new module: the manifest must stay where it is."""
    manifest = (notes_project / "mcpgen.yaml").read_bytes()
    _edit_state(notes_project, lambda s: _prompt(s)["user_files"].update(handler="mcpgen.yaml"))
    _edit(notes_project, "  - name: summarize\n", "  - name: digest\n    renamed_from: summarize\n")
    done = _cli(notes_project, "generate")
    assert "Traceback" not in done.stderr
    assert (notes_project / "mcpgen.yaml").exists()
    assert (notes_project / HANDLERS / "summarize.py").read_text(encoding="utf-8").startswith(MINE)
    assert (notes_project / "mcpgen.yaml").read_bytes().startswith(manifest[:20])


def test_a_swap_by_renamed_from_is_a_located_error(notes_project: Path) -> None:
    _edit(
        notes_project, "  - name: summarize\n", "  - name: outline\n    renamed_from: summarize\n"
    )
    _edit(
        notes_project,
        "  - name: outline\n    arguments:\n      - {name: topic",
        "  - name: summarize\n    renamed_from: outline\n    arguments:\n      - {name: topic",
    )
    before = snapshot_tree(notes_project)
    done = _cli(notes_project, "generate")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "mcpgen.yaml:" in done.stderr and "renamed_from" in done.stderr
    assert snapshot_tree(notes_project) == before


def test_a_rename_chain_a_to_b_to_c_in_one_edit(notes_project: Path) -> None:
    """Two renames in one edit: each keeps its own handler, neither takes the other's."""
    _edit(notes_project, "  - name: summarize\n", "  - name: digest\n    renamed_from: summarize\n")
    _edit(notes_project, "  - name: outline\n", "  - name: brief\n    renamed_from: [outline]\n")
    done = _cli(notes_project, "generate")
    assert done.returncode == 0, done.stderr
    assert "summarize → digest" in done.stderr and "outline → brief" in done.stderr
    for module in ("summarize", "outline", "complete_summarize_note_id"):
        assert (
            (notes_project / HANDLERS / f"{module}.py").read_text(encoding="utf-8").startswith(MINE)
        )
    assert not list((notes_project / HANDLERS).glob("digest*")) and "Orphaned" not in done.stderr


def test_rename_python_name_and_removal_in_one_edit_keep_every_byte(notes_project: Path) -> None:
    mine = {p.name: p.read_bytes() for p in (notes_project / HANDLERS).glob("*.py")}
    _edit(
        notes_project,
        "  - name: summarize\n",
        "  - name: digest\n    renamed_from: summarize\n    python_name: digest\n",
    )
    _edit(
        notes_project,
        "  - name: outline\n    arguments:\n      - {name: topic, required: true}\n",
        "",
    )
    _edit(notes_project, "    name: index\n", "    name: catalogue\n    python_name: catalogue\n")
    done = _cli(notes_project, "generate")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    after = {p.name: p.read_bytes() for p in (notes_project / HANDLERS).glob("*.py")}
    assert after["digest.py"] == mine["summarize.py"]
    assert after["complete_digest_note_id.py"] == mine["complete_summarize_note_id.py"]
    assert after["outline.py"] == mine["outline.py"]  # removed: orphaned, kept
    assert "outline" in done.stderr and "Orphaned" in done.stderr
    kept = [b for b in after.values() if b == mine["index.py"]]
    assert kept, "the index handler's bytes are gone"
    again = _cli(notes_project, "generate")
    assert "Up to date" in again.stdout + again.stderr


def test_a_stub_in_the_way_of_a_rename_move_is_never_overwritten(notes_project: Path) -> None:
    """The rename's target already holds the user's bytes: both files are kept."""
    (notes_project / HANDLERS / "digest.py").write_text(f"{MINE}# already here\n", encoding="utf-8")
    _edit(
        notes_project,
        "  - name: summarize\n",
        "  - name: digest\n    renamed_from: summarize\n    python_name: digest\n",
    )
    done = _cli(notes_project, "generate")
    assert "Traceback" not in done.stderr
    assert (notes_project / HANDLERS / "digest.py").read_text(encoding="utf-8").endswith("here\n")
    assert (notes_project / HANDLERS / "summarize.py").read_text(encoding="utf-8").startswith(MINE)


def test_symlinked_handler_pointing_outside_is_never_written_through(
    notes_project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "victim.py"
    outside.write_text("victim\n", encoding="utf-8")
    target = notes_project / HANDLERS / "complete_summarize_note_id.py"
    target.unlink()
    os.symlink(outside, target)
    for args in COMMANDS:
        done = _cli(notes_project, *args)
        assert "Traceback" not in done.stderr, args
    assert outside.read_text(encoding="utf-8") == "victim\n"


def test_two_completion_handlers_with_one_module_name_are_a_located_error(
    notes_project: Path,
) -> None:
    """`complete_{prompt}_{argument}`: prompt `a` argument `b_c` and prompt `a_b` argument `c`
    would share one file; the manifest is refused before anything is written."""
    _edit(
        notes_project,
        "prompts:\n",
        "prompts:\n  - name: a\n    arguments:\n      - {name: b_c, completions: handler}\n"
        "  - name: a_b\n    arguments:\n      - {name: c, completions: handler}\n",
    )
    before = snapshot_tree(notes_project)
    done = _cli(notes_project, "generate")
    assert done.returncode != 0, done.stderr
    assert "mcpgen.yaml:" in done.stderr and "Traceback" not in done.stderr
    assert snapshot_tree(notes_project) == before


def test_two_entries_given_one_python_name_by_a_rename_are_a_located_error(
    notes_project: Path,
) -> None:
    _edit(
        notes_project,
        "  - name: summarize\n",
        "  - name: digest\n    renamed_from: summarize\n    python_name: outline\n",
    )
    before = snapshot_tree(notes_project)
    done = _cli(notes_project, "generate")
    assert done.returncode != 0, done.stderr
    assert "mcpgen.yaml:" in done.stderr and "Traceback" not in done.stderr
    assert snapshot_tree(notes_project) == before


def test_a_renamed_argument_orphans_its_completion_handler_and_keeps_it(
    notes_project: Path,
) -> None:
    mine = (notes_project / HANDLERS / "complete_summarize_note_id.py").read_bytes()
    _edit(
        notes_project,
        "  - name: summarize\n    arguments:\n      - {name: note_id",
        "  - name: digest\n    renamed_from: summarize\n    python_name: digest\n"
        "    arguments:\n      - {name: note",
    )
    done = _cli(notes_project, "generate")
    assert done.returncode == 0, done.stderr
    assert (notes_project / HANDLERS / "complete_summarize_note_id.py").read_bytes() == mine
    assert "complete_summarize_note_id.py" in done.stderr  # reported, not silently left
    assert (notes_project / HANDLERS / "complete_digest_note.py").exists()


@pytest.mark.parametrize("depth", [900, 990, 5000])
def test_a_view_nested_near_the_decoders_limit_is_no_crash(notes_project: Path, depth: int) -> None:
    text = (notes_project / STATE).read_text(encoding="utf-8")
    deep = "[" * depth + "]" * depth
    assert '"template": null' in text
    (notes_project / STATE).write_text(text.replace('"template": null', f'"template": {deep}', 1))
    for args in COMMANDS:
        done = _cli(notes_project, *args)
        assert "Traceback" not in done.stderr, args
    assert (notes_project / HANDLERS / "summarize.py").read_text(encoding="utf-8").startswith(MINE)


@pytest.mark.parametrize("what", ["directory", "symlink out", "dangling symlink", "not utf-8"])
def test_a_new_completion_stub_whose_path_is_taken_keeps_what_is_there(
    notes_project: Path, tmp_path: Path, what: str
) -> None:
    target = notes_project / HANDLERS / "complete_outline_topic.py"
    outside = tmp_path / "outside"
    outside.mkdir()
    if what == "directory":
        target.mkdir()
        (target / "keep.txt").write_text("keep\n", encoding="utf-8")
    elif what == "symlink out":
        target.symlink_to(outside, target_is_directory=True)
    elif what == "dangling symlink":
        target.symlink_to(outside / "nothing.py")
    else:
        target.write_bytes(b"\xff\xfe mine \x00\n")
    before = {p: p.read_bytes() for p in [target] if target.is_file()}
    _edit(notes_project, "{name: topic, required: true}", "{name: topic, completions: handler}")
    for args in [*COMMANDS, ["generate"]]:
        done = _cli(notes_project, *args)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert "internal" not in done.stderr, (args, done.stderr)
    assert not list(outside.iterdir()), "wrote through a symlink out of the project"
    if what == "directory":
        assert (target / "keep.txt").read_text(encoding="utf-8") == "keep\n"
    for path, data in before.items():
        assert path.read_bytes() == data
    assert (notes_project / HANDLERS / "outline.py").read_text(encoding="utf-8").startswith(MINE)


@pytest.mark.parametrize("name", ["../../../evil", "x; import os", 12])
def test_a_tool_python_name_that_is_not_a_name_is_a_located_error(
    notes_project: Path, name: object
) -> None:
    """The tools' records feed the same module names as the catalog's."""
    _edit_state(notes_project, lambda s: s["tools"]["ping"].update(python_name=name))
    _edit(notes_project, "  - name: ping\n", "  - name: pong\n    renamed_from: ping\n")
    _assert_refused(notes_project, STATE)


@pytest.mark.parametrize("removed", [True, False])
def test_a_handler_listed_as_generated_in_the_state_file_is_never_deleted(
    notes_project: Path, removed: bool
) -> None:
    """A hostile state lists the user's handler, with its true digest, among generated files:
    a run that no longer plans that path must not retire (delete) it: the state contradicts
    itself (also a prompt's handler), so it is refused, located."""
    import hashlib

    handler = notes_project / HANDLERS / "outline.py"
    mine = handler.read_bytes()
    path = f"{HANDLERS}/outline.py"
    digest = hashlib.sha256(mine).hexdigest()
    _edit_state(notes_project, lambda s: s["files"].update({path: digest}))
    if removed:
        _edit(
            notes_project,
            "  - name: outline\n    arguments:\n      - {name: topic, required: true}\n",
            "",
        )
    _assert_refused(notes_project, f"{STATE}:")
    assert handler.read_bytes() == mine


def test_a_removed_prompts_handler_listed_only_as_generated_is_kept(notes_project: Path) -> None:
    """A hostile state moves the handler of a prompt about to be removed from its user files
    to the generated ones, with its true digest: the run must keep it (it is Python without
    mcpgen's header, so not mcpgen's), and report it orphaned."""
    import hashlib

    handler = notes_project / HANDLERS / "outline.py"
    mine = handler.read_bytes()
    path = f"{HANDLERS}/outline.py"

    def change(state: dict[str, Any]) -> None:
        state["files"][path] = hashlib.sha256(mine).hexdigest()
        _prompt(state, "outline")["user_files"] = {}

    _edit_state(notes_project, change)
    _edit(
        notes_project,
        "  - name: outline\n    arguments:\n      - {name: topic, required: true}\n",
        "",
    )
    done = _cli(notes_project, "generate")
    assert "Traceback" not in done.stderr
    assert handler.read_bytes() == mine
    assert f"deleted  {path}" not in done.stderr
