"""The generated runtime, through real handlers in a real project: every result kind a
handler may return, and every failure (exception, timeout, bad output, stub) as a tool error."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.e2e.helpers import ProjectVenv, run_mcpgen

CASE = Path(__file__).parent / "runtime_case"


def test_handler_outcomes(tmp_path: Path, project_venv: ProjectVenv) -> None:
    root = tmp_path / "runtime-case"
    run_mcpgen(
        "new", "--manifest", str(CASE / "mcpgen.yaml"), "--dir", str(root), "--no-input", "--no-git"
    )
    handlers = root / "src" / "runtime_case" / "handlers"
    for handler in (CASE / "handlers").glob("*.py"):
        shutil.copyfile(handler, handlers / handler.name)  # the user writes their handlers
        (root / "tests" / f"test_{handler.name}").unlink()  # ... and their own tests
    shutil.copyfile(CASE / "behaviour.py", root / "tests" / "test_behaviour.py")
    done = project_venv.pytest(root, with_src=True)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "failed" not in done.stdout
