"""A full disk, a file size limit, a read-only checkout, a CR-only manifest, a path that is not
UTF-8: each gets one clear line from a real `python -m mcpgen`, no traceback, nothing changed.

The disks are real: a small tmpfs mounted for the test (as root; skipped elsewhere), filled
up, or remounted read-only.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcpgen.write.journal import JOURNAL_PATH
from tests.support.generate_processes import mcpgen, wait_for
from tests.support.in_memory import snapshot_tree

NEW_TOOL = "  - name: extra\n    input_schema: {type: object}\n"


def _mcpgen(
    *args: str | bytes, cwd: Path | bytes | None = None, **options: Any
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *args],
        capture_output=True,
        cwd=cwd,
        check=False,
        timeout=300,
        **options,
    )


def _one_error_line(done: subprocess.CompletedProcess[bytes], *words: str) -> str:
    """The run failed with exactly one `error:` line that holds `words`, and no traceback."""
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode not in (0, None), stderr
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    for word in words:
        assert word in errors[0], stderr
    return errors[0]


@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(disk: Path) -> None:
    """Write until the disk is full."""
    with (disk / "filler").open("wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


@pytest.fixture(scope="module")
def made_by_new(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project `mcpgen new demo` made, once: the tests that are not about `new` start from
    a copy (the project holds no path of its own, so a copy is the same project)."""
    root = tmp_path_factory.mktemp("new") / "p"
    done = _mcpgen("new", "demo", "--dir", str(root), "--no-input", "--no-git")
    assert done.returncode == 0, done.stderr
    return root


def _new_project(made_by_new: Path, root: Path) -> None:
    shutil.copytree(made_by_new, root, symlinks=True)


def _add_a_tool(root: Path) -> None:
    manifest = root / "mcpgen.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("tools:\n", "tools:\n" + NEW_TOOL, 1),
        encoding="utf-8",
    )


def test_a_full_disk_is_one_line_and_changes_nothing(tmp_path: Path, made_by_new: Path) -> None:
    with _tmpfs(tmp_path / "disk", "3m") as disk:
        root = disk / "p"
        _new_project(made_by_new, root)
        _add_a_tool(root)
        _fill(disk)
        before = snapshot_tree(root)
        for args in (
            ["generate", str(root)],
            ["add", "tool", "ping", "--dir", str(root)],
            ["add", "prompt", "greet", "--dir", str(root)],
        ):
            _one_error_line(_mcpgen(*args), "No space left")
            assert snapshot_tree(root) == before, args
        check = _mcpgen("generate", "--check", str(root))
        assert check.returncode == 1 and b"Traceback" not in check.stderr, check.stderr
        assert snapshot_tree(root) == before


def test_new_on_a_full_disk_leaves_nothing(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "disk", "400k") as disk:
        done = _mcpgen("new", "demo", "--dir", str(disk / "p"), "--no-input", "--no-git")
        _one_error_line(done, "No space left", f"removed {disk / 'p'}")
        assert sorted(p.name for p in disk.iterdir()) == []


def test_a_file_size_limit_is_one_line_and_changes_nothing(
    tmp_path: Path, made_by_new: Path
) -> None:
    root = tmp_path / "p"
    _new_project(made_by_new, root)
    _add_a_tool(root)
    before = snapshot_tree(root)

    def limit() -> None:  # in the child: writes past 2 kB fail with EFBIG, not SIGXFSZ
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    for args in (["generate", str(root)], ["add", "tool", "ping", "--dir", str(root)]):
        _one_error_line(_mcpgen(*args, preexec_fn=limit), "File too large")
        assert snapshot_tree(root) == before, args


def test_new_under_a_file_size_limit_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    def limit() -> None:  # the manifest fits; the template's render and the code do not
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2400, 2400))

    target = tmp_path / "p"
    done = _mcpgen("new", "demo", "--dir", str(target), "--no-input", "--no-git", preexec_fn=limit)
    _one_error_line(done, f"removed {target}")
    assert not target.exists()


@pytest.fixture
def read_only_project(tmp_path: Path, made_by_new: Path) -> Iterator[Path]:
    """A generated project on a file system remounted read-only."""
    with _tmpfs(tmp_path / "disk", "20m") as disk:
        root = disk / "p"
        _new_project(made_by_new, root)
        (root / ".mcpgen" / "lock").unlink(missing_ok=True)
        yield root


def _read_only(disk: Path) -> None:
    done = subprocess.run(
        ["mount", "-o", "remount,ro", str(disk)], capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_check_and_diff_need_no_lock_on_a_read_only_checkout(read_only_project: Path) -> None:
    root = read_only_project
    _read_only(root.parent)
    for args in (["generate", "--check"], ["generate", "--diff"], ["check"]):
        done = _mcpgen(*args, str(root))
        assert done.returncode == 0, (args, done.stderr)
        assert b"Traceback" not in done.stderr
    _one_error_line(_mcpgen("generate", str(root)), "Read-only file system", "nothing was written")
    _one_error_line(_mcpgen("add", "tool", "ping", "--dir", str(root)), "Read-only file system")


def test_a_stale_read_only_checkout_is_reported_not_locked(read_only_project: Path) -> None:
    root = read_only_project
    _add_a_tool(root)
    _read_only(root.parent)
    done = _mcpgen("generate", "--check", str(root))
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert b"lock" not in done.stderr, done.stderr
    assert b"src/demo/handlers/extra.py" in done.stderr


def test_a_killed_write_on_a_now_read_only_checkout_is_one_line(read_only_project: Path) -> None:
    root = read_only_project
    _add_a_tool(root)
    killed = mcpgen("generate", str(root), delay=0.5)
    assert wait_for(root / JOURNAL_PATH, killed)
    killed.kill()
    killed.wait(timeout=60)
    _read_only(root.parent)
    before = snapshot_tree(root)
    done = _mcpgen("generate", "--check", str(root))
    _one_error_line(done, "interrupted write", "read-only")
    assert snapshot_tree(root) == before


CR_ONLY = b"name: demo\rversion: 0.1.0\rtools:\r  - name: ping\r    input_schema: {type: objec}\r"


def test_a_cr_only_manifest_is_located_by_its_own_lines(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_bytes(CR_ONLY)
    done = _mcpgen("validate", str(tmp_path / "mcpgen.yaml"))
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert b"mcpgen.yaml:5:26: tools[0] (ping).input_schema.type" in done.stderr, done.stderr


def test_add_keeps_a_cr_only_manifest_cr_only(tmp_path: Path) -> None:
    manifest = tmp_path / "mcpgen.yaml"
    manifest.write_bytes(CR_ONLY.replace(b"objec}", b"object}"))
    assert _mcpgen("generate", str(tmp_path)).returncode == 0
    done = _mcpgen("add", "tool", "pong", "--dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    data = manifest.read_bytes()
    assert data.startswith(CR_ONLY.replace(b"objec}", b"object}")) and b"\n" not in data
    assert b"\r  - name: pong\r" in data
    assert (tmp_path / "src/demo/handlers/pong.py").is_file()


def test_add_refuses_a_manifest_mixing_lone_crs_and_lfs(tmp_path: Path) -> None:
    manifest = tmp_path / "mcpgen.yaml"
    manifest.write_bytes(b"name: demo\nversion: 0.1.0\rtools:\n  - name: ping\n")
    before = manifest.read_bytes()
    done = _mcpgen("add", "tool", "pong", "--dir", str(tmp_path))
    _one_error_line(done, "line 2 ends with a lone CR")
    assert manifest.read_bytes() == before


NOT_UTF8 = b"\xff\xfeproj"


def test_a_project_whose_path_is_not_utf8(tmp_path: Path) -> None:
    base = os.fsencode(tmp_path) + b"/" + NOT_UTF8
    os.mkdir(base)
    done = _mcpgen("new", "demo", "--dir", base + b"/p", "--no-input", "--no-git")
    assert done.returncode == 0, done.stderr
    project = base + b"/p"
    for args in (["generate"], ["generate", "--check"], ["add", "tool", "ping"], ["check"]):
        ran = _mcpgen(*args, cwd=project)
        assert ran.returncode == 0 and b"Traceback" not in ran.stderr, (args, ran.stderr)
    before = snapshot_tree(Path(os.fsdecode(project)))
    for args in (["hosts"], ["config", "cursor"]):
        _one_error_line(_mcpgen(*args, cwd=project), r"\xff\xfeproj", "is not valid UTF-8")
    assert snapshot_tree(Path(os.fsdecode(project))) == before


def test_a_server_name_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    done = _mcpgen("new", NOT_UTF8, "--no-input", "--no-git", cwd=tmp_path)
    _one_error_line(done, r"the server name \xff\xfeproj is not valid UTF-8")
    assert list(tmp_path.iterdir()) == []


def _as_another_user(*args: str) -> subprocess.CompletedProcess[bytes]:
    """`python -m mcpgen` as uid 65534, which may read everything (CAP_DAC_READ_SEARCH, so
    it reaches this Python) but write nothing root owns: a checkout owned by someone else."""
    caps = ["--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
    user = ["--reuid=65534", "--regid=65534", "--clear-groups", *caps]
    return subprocess.run(
        ["setpriv", *user, "env", "HOME=/nonexistent", sys.executable, "-m", "mcpgen", *args],
        capture_output=True,
        check=False,
        timeout=300,
    )


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv"
)
def test_check_works_on_a_checkout_owned_by_another_user(made_by_new: Path) -> None:
    # Outside pytest's temporary folders, which only root may enter.
    base = Path(tempfile.mkdtemp(prefix="mcpgen-owned-"))
    try:
        base.chmod(0o755)
        root = base / "p"
        _new_project(made_by_new, root)
        before = snapshot_tree(root)
        for args in (["generate", "--check"], ["generate", "--diff"], ["check"]):
            done = _as_another_user(*args, str(root))
            assert done.returncode == 0, (args, done.stderr)
        _one_error_line(_as_another_user("generate", str(root)), "Permission denied")
        assert snapshot_tree(root) == before
    finally:
        shutil.rmtree(base)
