"""A generated project with a `.venv` of its own, as `mcpgen call` and `mcpgen dev` expect.

The `.venv` is a real virtual environment whose only package path is the session's project
venv (a `.pth` line): made in a moment, with the generated project's pinned dependencies,
and nothing is installed into the shared venv.
"""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

from tests.support.project_venv import ProjectVenv, run_mcpgen

MANIFEST = """\
# The demo server of the developer-loop tests.
name: devdemo
version: 0.1.0
description: Answers for the developer loop.
tools:
  - name: echo
    description: Echo the text back, with its length.
    input_schema:
      type: object
      properties:
        text: {type: string, maxLength: 50, description: What to echo.}
      required: [text]
      additionalProperties: false
    output_schema:
      type: object
      properties:
        text: {type: string}
        length: {type: integer}
      required: [text, length]
  - name: greet
    description: Say hello.
    input_schema:
      type: object
      properties:
        name: {type: string, description: Whom to greet.}
  - name: fail
    description: Always fails.
    input_schema: {type: object}
"""

HANDLERS = {
    "echo": (
        "from devdemo._generated.models import EchoInput, EchoOutput\n\n\n"
        "def echo(args: EchoInput) -> EchoOutput:\n"
        "    return EchoOutput(text=args.text, length=len(args.text))\n"
    ),
    "greet": (
        "from devdemo._generated.models import GreetInput\n\n\n"
        "def greet(args: GreetInput) -> str:\n"
        "    return f\"hello {args.name or 'world'}\"\n"
    ),
    "fail": (
        "from devdemo._generated.models import FailInput\n\n\n"
        "def fail(args: FailInput) -> str:\n"
        '    raise ValueError("this tool always fails")\n'
    ),
}


def site_packages(python: Path) -> str:
    """The site-packages folder of the venv `python` belongs to."""
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def own_venv(root: Path, packages_from: ProjectVenv) -> Path:
    """`root/.venv`, seeing `packages_from`'s packages; its python."""
    target = root / ".venv"
    venv.EnvBuilder(with_pip=False, symlinks=sys.platform != "win32").create(target)
    python = target / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    Path(site_packages(python), "shared.pth").write_text(
        site_packages(packages_from.python) + "\n", encoding="utf-8"
    )
    return python


def dev_project(root: Path, packages_from: ProjectVenv) -> Path:
    """The demo project generated in `root`, its handlers written, with its own `.venv`."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    run_mcpgen("generate", str(root))
    for name, source in HANDLERS.items():
        (root / "src" / "devdemo" / "handlers" / f"{name}.py").write_text(source, "utf-8")
    own_venv(root, packages_from)
    return root
