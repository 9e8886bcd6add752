"""The built wheel carries everything mcpgen needs: installed into a clean venv, its CLI
validates, prints the schema and scaffolds a project identical to the committed example."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.support.project_venv import REPO

EXAMPLE = REPO / "examples" / "weather"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `bin/` folder of a fresh venv with only the wheel (and its dependencies) in it."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(work / "dist"),
            str(REPO),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = (work / "dist").glob("mcpgen-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "mcpgen/templates/project/copier.yml" in names
    assert "mcpgen/templates/generated/server.py.jinja" in names
    assert "mcpgen/manifest/schema.json" in names
    venv.EnvBuilder(with_pip=True).create(work / "venv")
    bin_dir = work / "venv" / "bin"
    subprocess.run(
        [
            str(bin_dir / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=900,
    )
    return bin_dir


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # Run outside the checkout so nothing can be imported from the source tree by accident.
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_validate_and_schema_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    done = run([str(installed / "mcpgen"), "validate", str(EXAMPLE)], tmp_path)
    assert done.returncode == 0, done.stderr
    schema = run([str(installed / "mcpgen"), "schema"], tmp_path)
    assert schema.returncode == 0
    assert '"$schema": "https://json-schema.org/draft/2020-12/schema"' in schema.stdout


def test_new_from_the_wheel_matches_the_committed_example(installed: Path, tmp_path: Path) -> None:
    done = run([str(installed / "mcpgen"), "new", "weather", "--no-input", "--no-git"], tmp_path)
    assert done.returncode == 0, done.stderr
    created = tmp_path / "weather"
    for path in sorted(EXAMPLE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            relative = path.relative_to(EXAMPLE)
            assert (created / relative).read_bytes() == path.read_bytes(), relative
