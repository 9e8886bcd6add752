"""Resources, resource templates, prompts and completion handlers under the tools' sync
rules, through the real `mcpgen generate` / `mcpgen check` commands on real files: a rename
keeps (or moves whole) the user's handler files, a removal orphans them and never deletes
them, and the plan says what happened."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_runner import Ran, run_cli

HANDLERS = "src/notes/handlers"
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
  - uri: notes://motd
    name: motd
    text: Hello
resource_templates:
  - uri_template: notes://{folder}/{id}
    name: note
    completions: {folder: [inbox, archive], id: handler}
prompts:
  - name: summarize
    arguments:
      - {name: note_id, required: true, completions: handler}
      - {name: style, completions: [short, detailed]}
"""
MINE = "# mine: every byte of this file is the user's\n"


def _generate(root: Path, *args: str) -> Ran:
    done = run_cli("generate", str(root), *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def _edit(root: Path, old: str, new: str) -> None:
    text = (root / "mcpgen.yaml").read_text(encoding="utf-8")
    assert old in text, old
    (root / "mcpgen.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")


def _mine(root: Path, module: str, function: str, parameters: str) -> str:
    """The user's own handler: distinct bytes that must survive every run."""
    text = f"{MINE}\n\ndef {function}({parameters}) -> str:\n    return 'mine'\n"
    (root / HANDLERS / f"{module}.py").write_text(text, encoding="utf-8")
    return text


@pytest.fixture
def notes_project(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    _generate(root)
    return root


def test_every_handler_is_created_once_and_recorded(notes_project: Path) -> None:
    handlers = {p.name for p in (notes_project / HANDLERS).glob("*.py")}
    assert handlers == {
        "__init__.py",
        "ping.py",
        "index.py",
        "note.py",
        "summarize.py",
        "complete_note_id.py",
        "complete_summarize_note_id.py",
    }
    state = json.loads((notes_project / ".mcpgen/state.json").read_text())
    assert state["catalog"]["prompt"]["summarize"]["user_files"] == {
        "handler": f"{HANDLERS}/summarize.py",
        "complete note_id": f"{HANDLERS}/complete_summarize_note_id.py",
    }
    assert "motd" in state["catalog"]["resource"]
    again = _generate(notes_project)
    assert "Up to date: nothing to write." in again.stdout + again.stderr
    assert "All 6 handlers match" in run_cli("check", str(notes_project)).stderr


def test_completion_stub_is_typed_and_names_the_other_arguments(notes_project: Path) -> None:
    stub = (notes_project / HANDLERS / "complete_note_id.py").read_text()
    assert "def complete_note_id(value: str, arguments: Mapping[str, str]) -> list[str]:" in stub
    assert "(`arguments`, by name: folder)" in stub
    table = (notes_project / "src/notes/_generated/catalog_table.py").read_text()
    assert '"id": complete_note_id_handler' in table


# The parameters each entry's handler takes: its stub's, without the types.
PARAMETERS = {"summarize": "note_id, style=None", "note": "folder, id", "index": ""}


@pytest.mark.parametrize(
    ("section", "old", "new", "kind"),
    [
        ("  - name: summarize", "summarize", "digest", "prompt"),
        ("    name: note\n", "note", "memo", "resource template"),
        ("    name: index\n", "index", "catalogue", "resource"),
    ],
)
def test_renamed_from_keeps_the_handler_and_its_python_name(
    notes_project: Path, section: str, old: str, new: str, kind: str
) -> None:
    module = old
    mine = _mine(notes_project, module, module, PARAMETERS[module])
    indent = section[: len(section) - len(section.lstrip())]
    if section.startswith("  - "):
        _edit(notes_project, section, f"  - name: {new}\n    renamed_from: {old}")
    else:
        _edit(notes_project, section, f"{indent}name: {new}\n{indent}renamed_from: {old}\n")
    done = _generate(notes_project)
    assert f"~ {old} → {new}: {kind} renamed (renamed_from)" in done.stderr
    assert f"keeps its Python name `{module}`" in done.stderr
    assert f"+ {new}" not in done.stderr and f"- {old}" not in done.stderr
    assert (notes_project / HANDLERS / f"{module}.py").read_text() == mine
    assert "Orphaned" not in done.stderr
    assert "All 6 handlers match" in run_cli("check", str(notes_project)).stderr


def test_renamed_with_a_new_python_name_moves_every_handler_file(notes_project: Path) -> None:
    mine = _mine(notes_project, "summarize", "summarize", "note_id, style=None")
    completer = (notes_project / HANDLERS / "complete_summarize_note_id.py").read_text()
    _edit(
        notes_project,
        "  - name: summarize",
        "  - name: digest\n    renamed_from: summarize\n    python_name: digest",
    )
    done = _generate(notes_project)
    assert (
        f"moves {HANDLERS}/summarize.py → {HANDLERS}/digest.py (content untouched)" in done.stderr
    )
    assert "rename its function `summarize` to `digest`" in done.stderr
    assert "rename its function `complete_summarize_note_id` to `complete_digest_note_id`" in (
        done.stderr
    )
    assert (notes_project / HANDLERS / "digest.py").read_text() == mine
    assert (notes_project / HANDLERS / "complete_digest_note_id.py").read_text() == completer
    assert not (notes_project / HANDLERS / "summarize.py").exists()
    checked = run_cli("check", str(notes_project))
    assert checked.returncode == 1
    assert "no function `digest`" in checked.stderr
    # The user follows the advice: the project checks clean again, nothing orphaned.
    for path in (notes_project / HANDLERS).glob("*digest*.py"):
        path.write_text(path.read_text().replace("summarize", "digest"))
    checked = run_cli("check", str(notes_project))
    assert checked.returncode == 0, checked.stderr
    assert "orphaned" not in checked.stderr


@pytest.mark.parametrize(
    ("start", "end", "module", "kind"),
    [
        ("prompts:", None, "summarize", "prompt"),
        ("resource_templates:", "prompts:", "note", "resource template"),
        ("  - uri: notes://index", "  - uri: notes://motd", "index", "resource"),
    ],
)
def test_a_removed_entry_orphans_its_handlers_and_never_deletes_them(
    notes_project: Path, start: str, end: str | None, module: str, kind: str
) -> None:
    mine = _mine(notes_project, module, module, "")
    text = (notes_project / "mcpgen.yaml").read_text()
    cut = text.index(start)
    (notes_project / "mcpgen.yaml").write_text(
        text[:cut] + (text[text.index(end) :] if end else "")
    )
    done = _generate(notes_project)
    name = "summarize" if kind == "prompt" else module
    assert f"- {name}: {kind} removed; the server no longer exposes it, its handler is kept" in (
        done.stderr
    )
    assert f"Orphaned handler: {HANDLERS}/{module}.py" in done.stderr
    assert (notes_project / HANDLERS / f"{module}.py").read_text() == mine
    checked = run_cli("check", str(notes_project))
    assert f"warning: orphaned handler {HANDLERS}/{module}.py" in checked.stderr
    if kind != "resource":  # its completion handler is the user's too
        completer = "complete_summarize_note_id" if kind == "prompt" else "complete_note_id"
        assert (notes_project / HANDLERS / f"{completer}.py").exists()
        assert f"Orphaned handler: {HANDLERS}/{completer}.py" in done.stderr


def test_plan_lists_added_and_changed_entries(notes_project: Path) -> None:
    _edit(notes_project, "    text: Hello", "    text: Bonjour")
    _edit(notes_project, "prompts:\n", "prompts:\n  - name: greet\n    template: Hello\n")
    _edit(notes_project, "notes://{folder}/{id}", "notes://{folder}/{slug}")
    _edit(notes_project, "id: handler}", "slug: handler}")
    done = _generate(notes_project)
    assert "+ greet: prompt added" in done.stderr
    assert "~ motd: resource changed\n    contents changed" in done.stderr
    assert "~ note: resource template changed" in done.stderr
    assert "BREAKS the handler: handler parameters changed: (folder: str, id: str) → " in (
        done.stderr
    )
    # The new argument's completion handler is new; the old one is the user's, kept.
    assert (notes_project / HANDLERS / "complete_note_slug.py").exists()
    assert f"Orphaned handler: {HANDLERS}/complete_note_id.py" in done.stderr


def test_a_static_list_becoming_a_handler_creates_its_stub(notes_project: Path) -> None:
    _edit(
        notes_project,
        "{name: style, completions: [short, detailed]}",
        "{name: style, completions: handler}",
    )
    done = _generate(notes_project)
    assert "~ summarize: prompt changed" in done.stderr
    assert "completions changed" in done.stderr
    assert (notes_project / HANDLERS / "complete_summarize_style.py").exists()
    assert "All 7 handlers match" in run_cli("check", str(notes_project)).stderr


def test_check_finds_a_completion_handler_that_takes_the_wrong_arguments(
    notes_project: Path,
) -> None:
    (notes_project / HANDLERS / "complete_note_id.py").write_text(
        "def complete_note_id(prefix: str) -> list[str]:\n    return []\n"
    )
    checked = run_cli("check", str(notes_project))
    assert checked.returncode == 1
    assert "note (id completions)" in checked.stderr
    assert "takes `prefix`, which the server does not pass" in checked.stderr


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "  - name: summarize",
            "  - name: summarize\n    renamed_from: summarize",
            "prompts[0].renamed_from: 'summarize' is still the name of a prompt",
        ),
        (
            "    name: motd\n",
            "    name: motd\n    renamed_from: gone\n",
            None,
        ),
    ],
)
def test_renamed_from_errors_are_located(
    notes_project: Path, old: str, new: str, message: str | None
) -> None:
    _edit(notes_project, old, new)
    if message is None:  # a second claim on the same former name
        _edit(notes_project, "    name: index\n", "    name: index\n    renamed_from: [gone]\n")
        message = "resources[1].renamed_from: 'gone' is also in renamed_from of resources[0]"
    before = {p: p.read_bytes() for p in notes_project.rglob("*") if p.is_file()}
    done = run_cli("generate", str(notes_project))
    assert done.returncode == 1
    assert "mcpgen.yaml:" in done.stderr and message in done.stderr
    assert "Traceback" not in done.stderr
    assert {p: p.read_bytes() for p in notes_project.rglob("*") if p.is_file()} == before


def test_completion_handler_module_may_not_collide_with_a_tool(notes_project: Path) -> None:
    _edit(
        notes_project,
        "  - name: ping\n",
        "  - name: complete_note_id\n    description: Oops.\n"
        "    input_schema: {type: object}\n  - name: ping\n",
    )
    done = run_cli("validate", str(notes_project))
    assert done.returncode == 1
    assert "its completion handler of 'id' module 'handlers/complete_note_id.py'" in done.stderr


def test_an_entry_added_back_takes_over_its_orphaned_handler_and_says_so(
    notes_project: Path,
) -> None:
    mine = _mine(notes_project, "index", "index", "")
    text = (notes_project / "mcpgen.yaml").read_text()
    removed = text.replace(
        "  - uri: notes://index\n    name: index\n    description: Every note.\n", ""
    )
    (notes_project / "mcpgen.yaml").write_text(removed)
    assert f"Orphaned handler: {HANDLERS}/index.py" in _generate(notes_project).stderr
    (notes_project / "mcpgen.yaml").write_text(text)
    done = _generate(notes_project)
    assert "+ index: resource added" in done.stderr
    assert f"index: uses the existing {HANDLERS}/index.py (left from before" in done.stderr
    assert (notes_project / HANDLERS / "index.py").read_text() == mine
    assert "Orphaned" not in done.stderr


def test_a_removed_prompt_named_like_a_generated_test_orphans_only_its_handler(
    notes_project: Path,
) -> None:
    _edit(notes_project, "prompts:\n", "prompts:\n  - name: contract\n")
    _generate(notes_project)
    assert (notes_project / HANDLERS / "contract.py").exists()
    _edit(notes_project, "  - name: contract\n", "")
    done = _generate(notes_project)
    assert f"Orphaned handler: {HANDLERS}/contract.py" in done.stderr
    assert "tests/test_contract.py" not in done.stderr  # generated, not the user's
