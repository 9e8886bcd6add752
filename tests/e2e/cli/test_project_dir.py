"""Run from a subfolder, every command finds its project as git finds a repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mcpgen.generation import generate_project

MANIFEST = """\
name: demo
version: 0.1.0
tools:
  - name: ping
    description: Answers pong
    input_schema: {type: object}
"""


def mcpgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def generated_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("found") / "demo"
    root.mkdir()
    (root / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    generate_project(root)
    return root.resolve()


@pytest.mark.parametrize(
    "args",
    [
        ("validate",),
        ("generate",),
        ("check",),
        ("hosts", "--launcher", "uv"),
        ("config", "claude-desktop", "--launcher", "uv"),
    ],
)
def test_each_command_finds_the_project_from_a_subfolder(
    generated_demo: Path, args: tuple[str, ...]
) -> None:
    done = mcpgen(*args, cwd=generated_demo / "src/demo/handlers")
    assert done.returncode == 0, done.stderr
    assert f"Using the project in {generated_demo} (3 folders up)\n" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_snippet_on_stdout_stays_clean(generated_demo: Path) -> None:
    done = mcpgen("config", "claude-desktop", "--launcher", "uv", cwd=generated_demo / "src")
    assert done.returncode == 0, done.stderr
    assert "demo" in json.loads(done.stdout)["mcpServers"]
    assert f"Using the project in {generated_demo} (1 folder up)" in done.stderr


def test_an_explicit_subfolder_finds_the_project_too(generated_demo: Path) -> None:
    done = mcpgen("validate", str(generated_demo / "tests"), cwd=generated_demo.parent)
    assert done.returncode == 0, done.stderr
    assert f"Using the project in {generated_demo} (1 folder up)" in done.stderr


def test_add_from_a_subfolder_edits_the_projects_manifest(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    generate_project(tmp_path)
    done = mcpgen("add", "tool", "pong", cwd=tmp_path / "src/demo/handlers")
    assert done.returncode == 0, done.stderr
    assert "- name: pong" in (tmp_path / "mcpgen.yaml").read_text()
    assert (tmp_path / "src/demo/handlers/pong.py").is_file()
    assert not (tmp_path / "src/demo/handlers/mcpgen.yaml").exists()


def test_in_the_project_folder_nothing_more_is_said(generated_demo: Path) -> None:
    done = mcpgen("validate", cwd=generated_demo)
    assert done.stderr == "mcpgen.yaml: valid (1 tool)\n"


def test_no_project_above_is_one_line(tmp_path: Path) -> None:
    if any((parent / "mcpgen.yaml").exists() for parent in tmp_path.parents):
        pytest.skip("a parent of the temporary folder holds a manifest")
    done = mcpgen("generate", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "no mcpgen.yaml in this directory or any directory above it" in done.stderr


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown")
def test_a_manifest_another_user_owns_is_not_used(tmp_path: Path) -> None:
    # Anyone may leave a manifest in a shared parent folder: it is refused, not run.
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    os.chown(tmp_path / "mcpgen.yaml", 65534, 65534)
    (tmp_path / "mine").mkdir()
    done = mcpgen("generate", cwd=tmp_path / "mine")
    assert done.returncode == 1
    assert "belongs to another user" in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcpgen.yaml", "mine"]


def test_a_deleted_working_folder_is_one_line(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys; os.rmdir(sys.argv[1]); os.execv(sys.executable, "
            "[sys.executable, '-m', 'mcpgen', 'generate'])",
            str(gone),
        ],
        cwd=gone,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 1
    assert "no longer exists" in stderr and "Traceback" not in stderr


def test_a_dangling_manifest_here_is_never_replaced_by_a_parents(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "mcpgen.yaml").symlink_to(tmp_path / "missing.yaml")
    done = mcpgen("generate", cwd=inner)
    assert done.returncode == 1
    assert "Using the project" not in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "src").exists()  # the parent project was not generated


def test_a_dangling_manifest_above_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").symlink_to(tmp_path / "missing.yaml")
    (tmp_path / "inner").mkdir()
    done = mcpgen("validate", cwd=tmp_path / "inner")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("kind", ["dangling symlink", "folder", "FIFO"])
def test_a_manifest_that_is_no_regular_file_is_named_as_what_it_is(
    tmp_path: Path, kind: str
) -> None:
    manifest = tmp_path / "mcpgen.yaml"
    if kind == "dangling symlink":
        manifest.symlink_to(tmp_path / "missing.yaml")
    elif kind == "folder":
        manifest.mkdir()
    else:
        os.mkfifo(manifest)
    done = mcpgen("validate", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"mcpgen.yaml is a {kind}, not a file" in done.stderr, done.stderr
