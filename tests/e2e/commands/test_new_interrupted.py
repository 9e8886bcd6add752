"""`mcpgen new NAME --dir D` interrupted by a real signal: it removes what it created, never a
file the user put in D meanwhile, and says so in one line.

Each test starts `python -m mcpgen new` as a real process with its commits slowed down
(`MCPGEN_DEBUG_STEP_DELAY`), waits until a given stage shows on disk (the manifest, the
scaffold, the generated package, the git repository), saves a user file into D, then sends
SIGINT or SIGTERM.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcpgen.write.transaction import DELAY_ENV

NOTE = b"my notes, saved into the new folder while mcpgen new ran\n"
APPENDED = b"# my line, appended in place to a file mcpgen had just written\n"

# What shows on disk once each stage has begun.
STAGES = {
    "manifest written, copier next": "mcpgen.yaml",
    "scaffold written": "README.md",
    "generate committing": "src/demo/_generated",
    "git init running": ".git",
}


def _new(target: Path, *extra: str, delay: float = 0.05) -> subprocess.Popen[str]:
    env = {**os.environ, DELAY_ENV: str(delay)}
    return subprocess.Popen(
        [sys.executable, "-m", "mcpgen", "new", "demo", "--dir", str(target), "--no-input", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _wait_for(path: Path, process: subprocess.Popen[str]) -> bool:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if os.path.lexists(path):
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.001)
    raise AssertionError(f"{path} never appeared")


def _files(root: Path) -> dict[str, bytes]:
    if not root.exists():
        return {}
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and not p.is_symlink()
    }


def _interrupt(
    target: Path, stage: str, signum: int, *, git: bool
) -> tuple[subprocess.Popen[str], str]:
    process = _new(target, *([] if git else ["--no-git"]))
    reached = _wait_for(target / STAGES[stage], process)
    if reached:
        (target / "notes.txt").write_bytes(NOTE)  # the user's own file, new in D
        process.send_signal(signum)
    _, stderr = process.communicate(timeout=120)
    assert reached, f"`new` ended before {stage}: {stderr}"
    assert "Traceback" not in stderr
    return process, stderr


@pytest.mark.parametrize("stage", list(STAGES))
def test_sigint_removes_only_what_new_created(tmp_path: Path, stage: str) -> None:
    target = tmp_path / "made-by-new"
    process, stderr = _interrupt(target, stage, signal.SIGINT, git=True)
    assert (target / "notes.txt").read_bytes() == NOTE, "the user's file was lost"
    if process.returncode == 0:
        return  # the signal came after the project was complete: nothing to remove
    assert process.returncode == 130, stderr
    assert "interrupted: removed the " in stderr and f"written in {target}" in stderr, stderr
    assert "kept notes.txt (not mcpgen's)" in stderr, stderr
    assert _files(target) == {"notes.txt": NOTE}, "something mcpgen created was left"
    assert sorted(p.name for p in target.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("stage", ["manifest written, copier next", "generate committing"])
def test_sigterm_in_an_existing_empty_dir_keeps_the_dir_and_the_users_file(
    tmp_path: Path, stage: str
) -> None:
    target = tmp_path / "empty"
    target.mkdir()
    process, stderr = _interrupt(target, stage, signal.SIGTERM, git=False)
    assert process.returncode == 128 + signal.SIGTERM, stderr
    assert "interrupted by SIGTERM: removed the " in stderr, stderr
    assert _files(target) == {"notes.txt": NOTE}
    assert target.is_dir()


def test_a_file_mcpgen_wrote_then_the_user_edited_stays(tmp_path: Path) -> None:
    target = tmp_path / "edited"
    process = _new(target, "--no-git")
    assert _wait_for(target / "src/demo/_generated", process)
    with (target / "README.md").open("ab") as handle:  # in place: the same inode
        handle.write(APPENDED)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "kept README.md (not mcpgen's, or changed since mcpgen wrote them)" in stderr
    files = _files(target)
    assert list(files) == ["README.md"] and files["README.md"].endswith(APPENDED)


def test_interrupted_in_a_new_dir_with_nothing_of_the_users_removes_the_dir(
    tmp_path: Path,
) -> None:
    target = tmp_path / "a" / "b"
    process = _new(target, "--no-git")
    assert _wait_for(target / "src/demo/_generated", process)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert f"interrupted: removed {target} and the " in stderr
    assert list(tmp_path.iterdir()) == [], "mcpgen's folders, parents too, are removed"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_sigint_during_git_leaves_no_repository(tmp_path: Path) -> None:
    """A slow `git` (a wrapper first on PATH) holds the run in the git stage for sure."""
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nsleep 0.3\nexec {shutil.which("git")} "$@"\n')
    wrapper.chmod(0o755)
    target = tmp_path / "slow-git"
    env = {**os.environ, "PATH": f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "mcpgen", "new", "demo", "--dir", str(target), "--no-input"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert _wait_for(target / ".git", process)
    (target / "notes.txt").write_bytes(NOTE)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert _files(target) == {"notes.txt": NOTE}
