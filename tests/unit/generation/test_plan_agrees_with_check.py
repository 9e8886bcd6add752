"""A change that takes a generated model away (an output schema, a `$defs` entry) breaks the
handler exactly when its file imports what went: the plan says so when, and only when,
`mcpgen check` refuses the handler afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.commands.check import check_project
from tests.support.demo_project import Run

HANDLER = "src/demo/handlers/place.py"
MANIFEST = """\
name: demo
version: 0.1.0
tools:
  - name: place
    input_schema:
      type: object
      properties: {where: {$ref: '#/$defs/Address'}, note: {type: string}}
      $defs:
        Address: {type: object, properties: {street: {type: string}}}
    output_schema:
      type: object
      properties: {ok: {type: boolean}}
"""
NO_OUTPUT = (
    "    output_schema:\n      type: object\n      properties: {ok: {type: boolean}}\n",
    "",
)
NO_ADDRESS = (
    "      properties: {where: {$ref: '#/$defs/Address'}, note: {type: string}}\n      $defs:\n"
    "        Address: {type: object, properties: {street: {type: string}}}\n",
    "      properties: {note: {type: string}}\n",
)
IMPORTS_ALL = "from demo._generated.models import PlaceInput, PlaceOutput, PlaceInputAddress\n"
IMPORTS_INPUT = "from demo._generated.models import PlaceInput\n"
BODY = "\n\ndef place(args: PlaceInput) -> object:\n    return {'ok': True}\n"

CASES = [
    pytest.param(NO_OUTPUT, IMPORTS_ALL, True, id="output schema gone, its model imported"),
    pytest.param(NO_OUTPUT, IMPORTS_INPUT, False, id="output schema gone, model not imported"),
    pytest.param(NO_ADDRESS, IMPORTS_ALL, True, id="a $defs entry gone, its class imported"),
    pytest.param(NO_ADDRESS, IMPORTS_INPUT, False, id="a $defs entry gone, class not imported"),
]


@pytest.fixture
def demo(tmp_path: Path) -> Run:
    run = Run(tmp_path / "demo")
    run.root.mkdir()
    run.manifest(MANIFEST)
    run()
    return run


@pytest.mark.parametrize(("edit", "imports", "breaks"), CASES)
def test_plan_and_check_agree_when_a_model_goes(
    demo: Run, edit: tuple[str, str], imports: str, breaks: bool
) -> None:
    models = (demo.root / "src/demo/_generated/models.py").read_text()
    assert "class PlaceInputAddress" in models  # the name the handler imports
    (demo.root / HANDLER).write_text(imports + BODY, encoding="utf-8")
    demo.edit_manifest(*edit)
    report = demo()
    (change,) = report.summary.changed
    # (a field that used the class may break the handler too: the plan says so apart)
    plan_breaks = [c.text for c in change.breaking if getattr(c, "model_gone", True)]
    problems = [p for p in check_project(demo.root / "mcpgen.yaml").handler_problems]
    assert bool(plan_breaks) is breaks and bool(problems) is breaks, (change, problems)
    if breaks:
        printed = " ".join(demo.printed.split())
        assert problems[0].message in printed  # the plan says what check says
