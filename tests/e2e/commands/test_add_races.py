"""`mcpgen add` and a manifest the user saves, protects or owns: the user's bytes and modes win.

Each test runs `python -m mcpgen add ...` as a real process on a real project.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcpgen.write.journal import JOURNAL_PATH
from mcpgen.write.transaction import SWAP_DELAY_ENV
from tests.support.demo_project import Run
from tests.support.generate_processes import mcpgen, run_mcpgen, wait_for

SAVED = "# saved by the user while mcpgen add ran\n"


def _manifest(project: Run) -> Path:
    return project.root / "mcpgen.yaml"


def test_a_save_during_the_write_is_kept_and_the_tool_added_to_it(project: Run) -> None:
    manifest = _manifest(project)
    adding = mcpgen("add", "tool", "ping", "--dir", str(project.root), delay=0.5)
    # The journal appears before the manifest's write, which the delay holds back.
    assert wait_for(project.root / JOURNAL_PATH, adding), "add ended before it started writing"
    with manifest.open("a", encoding="utf-8") as handle:  # in place, as `echo >>` does
        handle.write(SAVED)
    _, stderr = adding.communicate(timeout=120)
    assert adding.returncode == 0, stderr
    assert "Traceback" not in stderr
    text = manifest.read_text(encoding="utf-8")
    assert SAVED in text, "the user's save was lost"
    assert "- name: ping" in text
    assert not list(project.root.rglob("*.mcpgen-*"))


def test_saves_all_through_an_add_lose_no_line(project: Run) -> None:
    """The user (this test's process) appends a line every few milliseconds, by path and in
    place, for as long as `add` runs: every line must be in the manifest afterwards."""
    manifest = _manifest(project)
    adding = mcpgen(
        "add", "resource", "settings", "--uri", "config://app", "--dir", str(project.root)
    )
    written: list[str] = []
    deadline = time.monotonic() + 120
    while adding.poll() is None and time.monotonic() < deadline:
        line = f"# save {len(written)}\n"
        with manifest.open("a", encoding="utf-8") as handle:
            handle.write(line)
        written.append(line)
        time.sleep(0.002)
    _, stderr = adding.communicate(timeout=120)
    assert "Traceback" not in stderr
    text = manifest.read_text(encoding="utf-8")
    lost = [line for line in written if line not in text]
    assert not lost, f"{len(lost)} of {len(written)} saves lost; {stderr}"
    if adding.returncode == 0:
        assert "name: settings" in text
    else:
        assert "kept changing while mcpgen was adding to it; nothing was added" in stderr
        assert "name: settings" not in text


@pytest.mark.parametrize("what", [["tool", "ping"], ["prompt", "greet"]])
def test_a_read_only_manifest_is_refused_and_stays_read_only(project: Run, what: list[str]) -> None:
    manifest = _manifest(project)
    manifest.chmod(0o444)
    before = manifest.read_bytes()
    done = run_mcpgen("add", *what, "--dir", str(project.root))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "mcpgen.yaml is read-only" in lines[0], done.stderr
    assert manifest.read_bytes() == before
    assert stat.S_IMODE(manifest.stat().st_mode) == 0o444


def test_the_manifest_keeps_its_mode_and_owner(project: Run) -> None:
    manifest = _manifest(project)
    manifest.chmod(0o640)
    if os.geteuid() == 0:
        os.chown(manifest, 4321, 4321)
    done = run_mcpgen("add", "tool", "ping", "--dir", str(project.root))
    assert done.returncode == 0, done.stderr
    info = manifest.stat()
    assert stat.S_IMODE(info.st_mode) == 0o640
    if os.geteuid() == 0:
        assert (info.st_uid, info.st_gid) == (4321, 4321)


def test_add_after_a_killed_run_first_undoes_it(project: Run) -> None:
    project.edit_manifest("Forecast for a city", "Forecast for any city")
    killed = mcpgen("generate", str(project.root), delay=0.5)
    assert wait_for(project.root / JOURNAL_PATH, killed)
    killed.kill()
    killed.wait(timeout=60)
    done = run_mcpgen("add", "tool", "ping", "--dir", str(project.root))
    assert done.returncode == 0, done.stderr
    assert "Recovered from an interrupted write" in done.stderr
    assert "- name: ping" in _manifest(project).read_text(encoding="utf-8")
    assert not (project.root / JOURNAL_PATH).exists()


def test_an_editor_save_by_rename_just_before_the_swap_is_kept(project: Run) -> None:
    """The editor renames its new file over the manifest after `add` checked it and before
    the edited one goes in (`MCPGEN_DEBUG_SWAP_DELAY` holds that moment open): the save is
    handed back, and the tool is added to it."""
    manifest = _manifest(project)
    env = {**os.environ, SWAP_DELAY_ENV: "1"}
    adding = subprocess.Popen(
        [sys.executable, "-m", "mcpgen", "add", "tool", "ping", "--dir", str(project.root)],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 120
    while not list(project.root.glob(".mcpgen.yaml.*.mcpgen-backup")):
        assert adding.poll() is None and time.monotonic() < deadline, "add never backed it up"
        time.sleep(0.002)
    saved = manifest.read_text(encoding="utf-8") + SAVED
    (project.root / ".mcpgen.yaml.editor-tmp").write_text(saved, encoding="utf-8")
    os.replace(project.root / ".mcpgen.yaml.editor-tmp", manifest)
    _, stderr = adding.communicate(timeout=120)
    assert adding.returncode == 0, stderr
    text = manifest.read_text(encoding="utf-8")
    assert SAVED in text, "the editor's save was replaced"
    assert "- name: ping" in text
    assert not list(project.root.rglob("*.mcpgen-*"))


def test_a_manifest_that_is_not_utf8_is_refused_at_its_byte(project: Run) -> None:
    manifest = _manifest(project)
    manifest.write_bytes(manifest.read_bytes().replace(b"Sync test server", b"Caf\xe9 server"))
    before = manifest.read_bytes()
    done = run_mcpgen("add", "tool", "ping", "--dir", str(project.root))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "mcpgen.yaml:4:17: cannot edit the manifest: it is not UTF-8 text" in done.stderr
    assert manifest.read_bytes() == before
