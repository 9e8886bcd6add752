"""The committed examples are exactly what mcpgen produces today, byte for byte.

Update them after an intended change with:  pytest tests/golden/test_examples.py --update-goldens
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.cli_runner import run_cli

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
# How each example is made: `mcpgen new` arguments (after the target directory).
RECIPES: dict[str, list[str]] = {
    "weather": ["weather"],
    "notes-app": ["--manifest", str(EXAMPLES / "notes-app" / "mcpgen.yaml")],
    "memory": ["--manifest", str(EXAMPLES / "memory" / "mcpgen.yaml")],
    "everything": ["--manifest", str(EXAMPLES / "everything" / "mcpgen.yaml")],
}
# Examples whose handlers and handler tests are written, not stubs: those user-owned files
# are laid over the fresh tree (mcpgen never changes a user file, so this is what a user has).
WRITTEN = {"everything": ("src/everything/handlers/", "tests/test_test_", "tests/test_json_")}


def produce(name: str, destination: Path, cwd: Path | None = None) -> None:
    args = RECIPES[name]
    positional = [args[0]] if not args[0].startswith("-") else []
    options = args[len(positional) :]
    done = run_cli(
        "new", *positional, "--dir", str(destination), "--no-input", "--no-git", *options, cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    for written in sorted((EXAMPLES / name).rglob("*.py")) if name in WRITTEN else ():
        relative = written.relative_to(EXAMPLES / name).as_posix()
        if relative.startswith(WRITTEN[name]) and "__pycache__" not in relative:
            shutil.copyfile(written, destination / relative)


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.relative_to(root).parts
    }


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_example_is_current(name: str, tmp_path: Path, update_goldens: bool) -> None:
    fresh = tmp_path / name
    produce(name, fresh)
    committed = EXAMPLES / name
    if update_goldens:
        manifest = (committed / "mcpgen.yaml").read_bytes() if name != "weather" else None
        shutil.rmtree(committed, ignore_errors=True)
        shutil.copytree(fresh, committed)
        if manifest is not None:
            assert (committed / "mcpgen.yaml").read_bytes() == manifest
        return
    expected, actual = tree(committed), tree(fresh)
    assert sorted(actual) == sorted(expected), "files differ; run with --update-goldens"
    changed = [path for path in expected if expected[path] != actual[path]]
    assert not changed, f"content differs in {changed}; run with --update-goldens"


def test_output_is_deterministic(tmp_path: Path) -> None:
    """Runs in different directories, from a working directory whose pyproject.toml sets
    other formatter line lengths, give byte-identical trees."""
    hostile = tmp_path / "elsewhere"
    hostile.mkdir()
    (hostile / "pyproject.toml").write_text(
        "[tool.black]\nline-length = 40\n[tool.ruff]\nline-length = 40\n"
        "[tool.datamodel-codegen]\nbuiltin-format-line-length = 40\n"
    )
    produce("weather", tmp_path / "a" / "weather")
    produce("weather", tmp_path / "b" / "deeper" / "weather", cwd=hostile)
    assert tree(tmp_path / "a" / "weather") == tree(tmp_path / "b" / "deeper" / "weather")
