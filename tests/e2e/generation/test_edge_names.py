"""Names and texts that collide with what generated code uses, in one project that must
install, pass its own tests, ruff and mypy --strict."""

from __future__ import annotations

from pathlib import Path

from tests.support.project_venv import ProjectVenv, assert_lint_clean, run_mcpgen

MANIFEST = r"""
name: "edge cases: names & texts"
version: 2.0.0rc1
description: "Quotes \"\"\" and a backslash \\ in the description, and a control character: \a"
env:
  REGION: {description: Region, required: true, default: eu}
tools:
  - {name: inspect, description: Shadows a module it imports., input_schema: {type: object}}
  - {name: pytest, description: Shadows pytest in the user test., input_schema: {type: object}}
  - {name: class, description: A keyword., input_schema: {type: object}}
  - {name: annotations, description: Taken by the __future__ import., input_schema: {type: object}}
  - {name: contract, description: Its test would be test_contract.py., input_schema: {type: object}}
  - {name: contract_tool, description: Takes the fallback name., input_schema: {type: object}}
  - name: list-items
    python_name: list_items_v2
    description: "Ends with a quote: \"done\""
    input_schema:
      type: object
      properties:
        "from": {type: string}
        item-count: {type: integer, minimum: 0}
        "3d": {type: boolean}
      required: [from]
    examples:
      - arguments: {from: a, item-count: 2, 3d: true}
"""


def test_edge_names_project(tmp_path: Path, project_venv: ProjectVenv) -> None:
    manifest = tmp_path / "mcpgen.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    root = tmp_path / "edge"
    run_mcpgen("new", "--manifest", str(manifest), "--dir", str(root), "--no-input", "--no-git")
    tests = sorted(p.name for p in (root / "tests").glob("test_contract*.py"))
    assert tests == ["test_contract.py", "test_contract_tool.py", "test_contract_tool2.py"]
    done = project_venv.pytest(root, with_src=True)
    assert done.returncode == 0, done.stdout[-4000:]
    assert_lint_clean(root, project_venv)
