"""A manifest with the schema shapes whose models and publication mcpgen shapes itself (a
`$ref` through the schema's own `$id`, defaults, tagged unions, a tuple, a tool that may run as
a task): the project installs, passes its own tests, ruff and
mypy --strict, its handler uses the typed model plainly, and tools/list publishes
`execution.taskSupport` as written."""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.project_venv import ProjectVenv, assert_lint_clean, raw_tools_list, run_mcpgen

MANIFEST = """
name: shapes
version: 1.0.0
tools:
  - name: shapes.draw
    description: Draw a shape.
    execution: {taskSupport: optional}
    input_schema:
      $id: https://shapes.invalid/draw.json
      type: object
      properties:
        shape: {$ref: "https://shapes.invalid/draw.json#/$defs/Shape"}
        size:
          type: array
          prefixItems: [{type: number, minimum: 0}, {type: number}]
          items: false
          minItems: 2
        copies: {type: integer, minimum: 1, default: 1}
        label: {type: [string, "null"], default: null}
      required: [shape]
      $defs:
        Shape:
          oneOf:
            - type: object
              properties: {kind: {const: circle}, radius: {type: number}}
              required: [kind, radius]
            - type: object
              properties: {kind: {const: square}, side: {type: number}}
              required: [kind, side]
    examples:
      - arguments: {shape: {kind: circle, radius: 2}, size: [3, 4], copies: 2}
      - arguments: {shape: {kind: square, side: 1}}
"""

HANDLER = """from __future__ import annotations

from shapes._generated.models import ShapesDrawInput, ShapesDrawInputShapeCircle


async def shapes_draw(args: ShapesDrawInput) -> str:
    width, height = args.size if args.size is not None else (1.0, 1.0)
    what = "circle" if isinstance(args.shape, ShapesDrawInputShapeCircle) else "square"
    return f"{args.copies} x {what} in {width} x {height}, label {args.label!r}"
"""


def test_shaped_models_project(tmp_path: Path, project_venv: ProjectVenv) -> None:
    manifest = tmp_path / "mcpgen.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    root = tmp_path / "shapes"
    run_mcpgen("new", "--manifest", str(manifest), "--dir", str(root), "--no-input", "--no-git")
    models = (root / "src" / "shapes" / "_generated" / "models.py").read_text(encoding="utf-8")
    assert "    copies: Annotated[int, Field(ge=1)] = 1\n" in models
    assert "tuple[float, float] | None" in models
    assert "class ShapesDrawInputShapeSquare(BaseModel):" in models
    (root / "src" / "shapes" / "handlers" / "shapes_draw.py").write_text(HANDLER, "utf-8")

    done = project_venv.pytest(root, with_src=True)
    assert done.returncode == 0, done.stdout[-4000:]
    assert "skipped" not in done.stdout.splitlines()[-1], done.stdout[-2000:]
    assert_lint_clean(root, project_venv)
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    (published,) = raw_tools_list([str(project_venv.python), "-m", "shapes"], env)
    assert published["execution"] == {"taskSupport": "optional"}
    assert published["inputSchema"]["$id"] == "https://shapes.invalid/draw.json"  # type: ignore[index]
