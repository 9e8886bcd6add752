"""`mcpgen diff`: the client contract at a git ref against the working tree, and the version
bump it calls for.

The ref's side is read from git's object store (`git show`, `git archive`), never checked
out: the working tree, the index and HEAD stay as they are. The project's files at the ref
(the manifest, and the imported specs and resource files it names) are unpacked into a
temporary folder so the manifest loads there exactly as it loaded when it was committed.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from mcpgen.contract import ContractDiff, compare
from mcpgen.errors import ExitCode, McpgenError
from mcpgen.manifest import MANIFEST_FILENAME, Manifest, check_text, load_manifest
from mcpgen.write.atomic import write_atomic


class GitRefError(McpgenError):
    """The ref side cannot be read: no git, not a repository, an unknown ref, no manifest."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exit_code=ExitCode.USAGE)


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    program = shutil.which("git")
    if program is None:
        raise GitRefError("mcpgen diff needs git, and git is not installed")
    return subprocess.run([program, *args], cwd=cwd, capture_output=True, check=False)


def _prefix(root: Path) -> str:
    """The project folder's path inside its repository (`""` at the top, else `a/b/`)."""
    done = _git(root, "rev-parse", "--show-prefix")
    if done.returncode != 0:
        raise GitRefError(f"{root} is not inside a git repository; mcpgen diff compares with git")
    return done.stdout.decode().strip()


def _commit(root: Path, ref: str) -> str:
    done = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    if done.returncode != 0 or ref.startswith("-"):
        raise GitRefError(f"'{ref}' is not a commit in this repository")
    return done.stdout.decode().strip()


def manifest_text_at(root: Path, ref: str, name: str = MANIFEST_FILENAME) -> str:
    """The manifest's text as committed at `ref`."""
    prefix, commit = _prefix(root), _commit(root, ref)
    done = _git(root, "show", f"{commit}:{prefix}{name}")
    if done.returncode != 0:
        raise GitRefError(f"{prefix}{name} does not exist at {ref}")
    return done.stdout.decode("utf-8-sig", errors="replace")


def _unpack_project(root: Path, ref: str, into: Path) -> None:
    """The project folder's tracked files at `ref`, written under `into`."""
    prefix, commit = _prefix(root), _commit(root, ref)
    tree = f"{commit}:{prefix.rstrip('/')}" if prefix else commit
    top = _git(root, "rev-parse", "--show-toplevel").stdout.decode().strip()
    # From the top: git archive refuses to run in a folder it does not track.
    done = _git(Path(top) if top else root, "archive", "--format=tar", tree)
    if done.returncode != 0:
        raise GitRefError(f"cannot read the project at {ref}: {done.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        archive.extractall(into, filter="data")


def manifest_at(root: Path, ref: str, name: str = MANIFEST_FILENAME) -> Manifest:
    """The typed manifest as it was at `ref`; GitRefError when it cannot be read or loaded."""
    text = manifest_text_at(root, ref, name)
    with tempfile.TemporaryDirectory(prefix="mcpgen-diff-") as scratch:
        _unpack_project(root, ref, Path(scratch))
        manifest, diagnostics = check_text(text, f"{ref}:{name}", Path(scratch))
    if manifest is None:
        first = next((str(d) for d in diagnostics if d.level == "error"), "")
        raise GitRefError(f"the manifest at {ref} does not load: {first}")
    return manifest


def contract_diff(manifest_path: Path, ref: str = "HEAD") -> ContractDiff:
    """The client-facing changes from the manifest at `ref` to the one on disk."""
    old = manifest_at(manifest_path.parent, ref, manifest_path.name)
    return compare(old, load_manifest(manifest_path))


_VERSION_SCALAR = re.compile(r"""(?P<q>["']?)(?P<v>[^"'\s#,}]+)(?P=q)""")


def bump_version(manifest_path: Path, version: str) -> bool:
    """Write `version` as the manifest's `version:`, editing only that scalar (comments,
    quoting and layout stay); False when the manifest has no `version:` to edit."""
    from ruamel.yaml import YAML

    text = manifest_path.read_text(encoding="utf-8")
    try:
        data = YAML().load(text)
        line, col = data.lc.value("version")
    except Exception:  # no mapping, or no version key: nothing to edit in place
        return False
    lines = text.splitlines(keepends=True)
    found = _VERSION_SCALAR.match(lines[line], col)
    if found is None:
        return False
    quote = found["q"]
    lines[line] = f"{lines[line][:col]}{quote}{version}{quote}{lines[line][found.end() :]}"
    edited = "".join(lines)
    manifest, _ = check_text(edited, str(manifest_path), manifest_path.parent)
    if manifest is None or manifest.version != version:
        return False  # a `version:` written in a way the edit cannot follow: left alone
    write_atomic(manifest_path, edited)
    return True
