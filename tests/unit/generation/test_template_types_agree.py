"""A resource template variable's type changes: the plan's verdict on the handler and
`mcpgen check`'s verdict on the same file agree, whatever the handler looks like."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.commands.check import check_project
from tests.support.demo_project import Run

HANDLER = "src/notes/handlers/note.py"
MANIFEST = """\
name: notes
version: 0.1.0
tools:
  - name: ping
    input_schema: {type: object}
resource_templates:
  - uri_template: notes://{folder}/{id}
    name: note
    parameters: {id: {type: string}}
"""

# (the handler's signature, the variable's new type, whether both say it breaks)
CASES = [
    pytest.param("folder: str, id: str", "integer", True, id="stub's str, now integer"),
    pytest.param("folder: str, id: int", "string", True, id="int, now string"),
    pytest.param("folder, id", "integer", False, id="unannotated"),
    pytest.param("folder: str, id: int", "integer", False, id="already int"),
    pytest.param("folder: str, id: float", "integer", False, id="float takes an int"),
    pytest.param("folder: str, id: 'int | str'", "integer", False, id="a union that holds it"),
    pytest.param("folder: str, id: Optional[str]", "integer", True, id="Optional[str]"),
    pytest.param("**values: object", "integer", False, id="keywords"),
    pytest.param("folder: str, id: NoteId", "integer", False, id="an alias: not judged"),
]


@pytest.fixture
def notes(tmp_path: Path) -> Run:
    run = Run(tmp_path / "notes")
    run.root.mkdir()
    run.manifest(MANIFEST)
    run()
    return run


@pytest.mark.parametrize(("signature", "new_type", "breaks"), CASES)
def test_plan_and_check_agree_on_a_variable_type_change(
    notes: Run, signature: str, new_type: str, breaks: bool
) -> None:
    (notes.root / HANDLER).write_text(
        "from typing import Optional\n\nNoteId = int\n\n\n"
        f"def note({signature}) -> str:\n    return ''\n",
        encoding="utf-8",
    )
    notes.edit_manifest("{id: {type: string}}", f"{{id: {{type: {new_type}}}}}")
    if new_type == "string":  # first make it an integer, with the handler above kept
        notes.edit_manifest("{id: {type: string}}", "{id: {type: integer}}")
        notes()
        notes.edit_manifest("{id: {type: integer}}", "{id: {type: string}}")
    report = notes()
    (change,) = report.summary.catalog.changed
    plan_breaks = any(c.breaking for c in change.changes)
    checked = check_project(notes.root / "mcpgen.yaml")
    check_breaks = any(p.path == HANDLER for p in checked.handler_problems)
    assert (plan_breaks, check_breaks) == (breaks, breaks), (change, checked.handler_problems)
    if breaks:
        (problem,) = checked.handler_problems
        printed = " ".join(notes.printed.split())
        assert problem.message in printed  # the plan says what check says
        assert "BREAKS the handler: handler parameters changed" in notes.printed
