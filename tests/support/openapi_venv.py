"""A venv for generated projects of one shape (one list of declared dependencies): the shared
project venv's packages behind its own (a `.pth` file), plus whatever the shape declares that
the shared venv lacks (httpx, for a project that calls an HTTP API). Made once per shape, by
whichever worker asks first; each project is then installed into it without dependencies."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

from tests.support.once import once
from tests.support.project_venv import ProjectVenv, shared_venv


def declared_dependencies(project: Path) -> list[str]:
    """The `[project].dependencies` of a generated project's pyproject.toml, sorted."""
    document = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    return sorted(document["project"].get("dependencies", []))


def _purelib(python: Path) -> str:
    done = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def shape_venv(project: Path) -> ProjectVenv:
    """The venv of `project`'s shape, made on first use, with `project` installed into it."""
    base = shared_venv()
    wanted = declared_dependencies(project)
    key = hashlib.sha256("\n".join((sys.version, base.root.name, *wanted)).encode()).hexdigest()
    target = ProjectVenv(base.root.parent / f"shape-{key[:12]}")

    def make() -> None:
        venv.EnvBuilder(with_pip=True, clear=True).create(target.root)
        layered = Path(_purelib(target.python)) / "shared-project-venv.pth"
        layered.write_text(f"import site; site.addsitedir({_purelib(base.python)!r})\n")
        target.pip("install", *wanted)

    once(target.root / ".ready", make, lock=base.root.parent / ".lock")
    target.install(project)
    return target
