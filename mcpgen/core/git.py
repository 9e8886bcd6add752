"""Running git: the one helper `mcpgen new` (first commit) and `mcpgen update` (merge) share."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from mcpgen.errors import McpgenError

# Commits mcpgen makes are authored by mcpgen, whatever the user's git config says.
IDENTITY = {
    "GIT_AUTHOR_NAME": "mcpgen",
    "GIT_AUTHOR_EMAIL": "mcpgen@localhost",
    "GIT_COMMITTER_NAME": "mcpgen",
    "GIT_COMMITTER_EMAIL": "mcpgen@localhost",
}


def git_available() -> bool:
    """Whether a `git` program is on PATH."""
    return shutil.which("git") is not None


def git(cwd: Path, *args: str, isolated: bool = True, needed_by: str = "mcpgen") -> str:
    """The output of `git args` run in `cwd`; McpgenError if git is missing or fails.

    `isolated` leaves the user's global config out (HOME is `cwd`, PATH only git's folder):
    hooks, signing or aliases there must not change a merge in a scratch repository. The
    user's own repository (`mcpgen new`'s first commit) keeps it, for its default branch.
    """
    program = shutil.which("git")
    if program is None:
        raise McpgenError(f"{needed_by} needs git, and git is not installed")
    if isolated:
        env = {**IDENTITY, "PATH": str(Path(program).parent), "HOME": str(cwd)}
    else:
        env = {**os.environ, **IDENTITY}
    done = subprocess.run(
        [program, *args], cwd=cwd, capture_output=True, text=True, check=False, env=env
    )
    if done.returncode != 0:
        raise McpgenError(f"git {args[0]} failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout
