"""The built wheel carries everything mcpgen needs: installed into a venv, its CLI validates,
prints the schema and scaffolds a project identical to the committed example.

A full run (`tests/support/sweep.py`) installs the wheel with its dependencies into a clean
venv, which proves they are declared; CI installs the wheel alone into a venv that sees the
test venv's packages behind its own (what takes 40 s is downloading and unpacking the
dependencies, which the test venv has: mcpgen itself still comes from the wheel, whose
files come first on the path)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from tests.support.project_venv import REPO
from tests.support.sweep import full_run

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
    alone = [] if full_run() else ["--no-deps"]
    if alone:
        _see_the_test_venv(bin_dir / "python")
    subprocess.run(
        [
            str(bin_dir / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            *alone,
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=900,
    )
    return bin_dir


def _see_the_test_venv(python: Path) -> None:
    """Put this venv's packages behind the new venv's own, except mcpgen's editable install."""
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    base = sysconfig.get_paths()["purelib"]
    # `addsitedir` would also run the test venv's `.pth` files, mcpgen's editable one among
    # them: the bare folder only.
    (Path(own) / "test-venv.pth").write_text(base + "\n", encoding="utf-8")


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
