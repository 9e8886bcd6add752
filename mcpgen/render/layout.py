"""The generated Python laid out by the pinned ruff: imports sorted, then formatted, in one
pass over the whole plan.

Templates and the model generator get the code right; ruff gets the layout right (import
order, where a long literal or signature breaks), exactly as the generated project's own
`ruff check --fix` and `ruff format` would.
It runs on a private temporary copy, with every setting given on the command line and
configuration files ignored, so the output is the same whatever the working directory.
"""

from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from collections.abc import Collection
from pathlib import Path

from mcpgen.errors import McpgenError
from mcpgen.render.plan import PlannedFile, RenderPlan

# The generated project's own settings (templates/project/pyproject.toml.jinja).
SETTINGS = ("--isolated", "--no-cache", "--quiet", "--line-length=100", "--target-version=py311")


def _commands(package: str) -> list[tuple[str, ...]]:
    first_party = f"lint.isort.known-first-party = [{package!r}]"
    return [
        ("check", *SETTINGS, "--select=I", "--fix", "--exit-zero", f"--config={first_party}"),
        ("format", *SETTINGS),
    ]


def format_python(plan: RenderPlan, package: str, skip: Collection[str] = ()) -> RenderPlan:
    """`plan` with every `.py` file as ruff lays it out; `package` is the project's own.

    Paths in `skip` are left as rendered: user files that already exist, which a run keeps
    whatever the plan says (laying out 150 unused handler stubs would double a no-change run).
    """
    python = [f for f in plan.files if f.path.endswith(".py") and f.path not in skip]
    if not python:
        return plan
    try:
        laid_out = _lay_out(python, package)
    except OSError as exc:  # a full disk or a file size limit where temporary files go
        raise McpgenError(
            f"cannot lay out the generated code in {tempfile.gettempdir()}: "
            f"{exc.strerror or exc}; nothing was written"
        ) from None
    return dataclasses.replace(
        plan,
        files=tuple(
            dataclasses.replace(f, content=laid_out[f.path]) if f.path in laid_out else f
            for f in plan.files
        ),
    )


def _lay_out(python: list[PlannedFile], package: str) -> dict[str, str]:
    """Each file's text as ruff lays it out, formatted together in a temporary folder."""
    from ruff.__main__ import find_ruff_bin  # the ruff mcpgen depends on, not one on PATH

    with tempfile.TemporaryDirectory(prefix="mcpgen-layout-") as temp:
        root = Path(temp)
        for planned in python:
            (root / planned.path).parent.mkdir(parents=True, exist_ok=True)
            (root / planned.path).write_bytes(planned.content.encode("utf-8"))
        for command in _commands(package):
            done = subprocess.run(
                [find_ruff_bin(), *command, "."],
                cwd=root,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                # Generated code ruff cannot parse is mcpgen's bug, never the user's.
                raise McpgenError(f"internal: ruff could not lay out generated code: {done.stderr}")
        return {f.path: (root / f.path).read_bytes().decode("utf-8") for f in python}
