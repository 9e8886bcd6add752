"""`_generated/` checks at import that the runtime vendored beside it is the API it was
rendered for: a mismatch is one clear ImportError naming `mcpgen generate`, in a fresh
interpreter, before anything else of the server loads."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from mcpgen.manifest import load_manifest
from mcpgen.render.plan import render_plan

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "weather" / "mcpgen.yaml"


def _vendor(root: Path) -> Path:
    """The weather project's Python package as rendered, under `root`; its `src`."""
    for planned in render_plan(load_manifest(EXAMPLE)).files:
        if planned.path.startswith("src/"):
            target = root / planned.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(planned.content, encoding="utf-8")
    return root / "src"


def _import_generated(src: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import weather._generated, sys; print(sorted(sys.modules))"],
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_runtime_it_was_rendered_for_imports(tmp_path: Path) -> None:
    done = _import_generated(_vendor(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "weather._runtime" in done.stdout


def test_another_runtime_api_is_one_clear_error(tmp_path: Path) -> None:
    src = _vendor(tmp_path)
    init = src / "weather" / "_runtime" / "__init__.py"
    text = init.read_text(encoding="utf-8")
    init.write_text(re.sub(r"(?m)^API = \d+", "API = 999", text), encoding="utf-8")
    done = _import_generated(src)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "ImportError: weather._generated was generated for the mcpgen runtime API"
    )
    assert "has API 999" in last and "run `mcpgen generate`" in last
