"""Another writer in the project while `generate` runs: the user's bytes always win.

Each test runs `python -m mcpgen generate` as a real process with its commit slowed down, and
a second real process that waits for the commit's staging files to appear, then writes.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from mcpgen.write.lock import LOCK_PATH
from tests.support.demo_project import Run
from tests.support.generate_processes import mcpgen, run_mcpgen, wait_for_journal
from tests.support.in_memory import snapshot_tree

HANDLER = "src/demo/handlers/ping.py"
MINE = b"def ping(args):  # saved by the user while generate ran\n    return 'mine'\n"
PING = "tools:\n  - name: ping\n    input_schema: {type: object}\n"


def writer(
    root: Path, staged_glob: str, target: str, data: bytes, mode: str
) -> subprocess.Popen[str]:
    """A process that writes `data` to `target` as soon as a file matching `staged_glob` exists."""
    script = textwrap.dedent(
        f"""
        import glob, os, sys, time
        deadline = time.monotonic() + 120
        while not glob.glob({str(root / staged_glob)!r}, include_hidden=True):
            if time.monotonic() > deadline:
                sys.exit("staging never started")
            time.sleep(0.001)
        with open({str(root / target)!r}, {mode!r}) as handle:
            handle.write({data!r})
        """
    )
    return subprocess.Popen([sys.executable, "-c", script], text=True)


def test_handler_saved_while_generate_runs_is_kept(project: Run) -> None:
    project.edit_manifest("tools:\n", PING)
    # "xb": the writer itself refuses to clobber, so if mcpgen's stub came first this test fails.
    racer = writer(project.root, "src/demo/handlers/.ping.py.*.mcpgen-tmp", HANDLER, MINE, "xb")
    generate = mcpgen("generate", str(project.root), delay=0.2)
    _, stderr = generate.communicate(timeout=120)
    assert racer.wait(timeout=60) == 0, "the user's save came after mcpgen's stub"
    assert generate.returncode == 0, stderr
    assert (project.root / HANDLER).read_bytes() == MINE
    assert f"Kept your {HANDLER}" in stderr
    assert not list(project.root.rglob("*.mcpgen-*")), "stub and temps removed"


def test_generated_file_edited_while_generate_runs_undoes_everything(project: Run) -> None:
    project.edit_manifest("Forecast for a city", "Forecast for any city")
    tools_md = project.root / "TOOLS.md"
    edit = tools_md.read_bytes() + b"\nmy note, typed while generate ran\n"
    racer = writer(project.root, ".TOOLS.md.*.mcpgen-tmp", "TOOLS.md", edit, "wb")
    generate = mcpgen("generate", str(project.root), delay=0.3)
    _, stderr = generate.communicate(timeout=120)
    assert racer.wait(timeout=60) == 0
    assert generate.returncode == 3, stderr
    assert "TOOLS.md was changed while mcpgen was writing; every change was undone" in stderr
    assert tools_md.read_bytes() == edit
    assert not list(project.root.rglob("*.mcpgen-*"))
    assert not (project.root / ".mcpgen/journal.json").exists()


def test_second_run_names_the_lock_holder(project: Run) -> None:
    project.edit_manifest("tools:\n", PING)
    first = mcpgen("generate", str(project.root), delay=0.5)
    assert wait_for_journal(project.root, first)
    second = run_mcpgen("generate", str(project.root))
    assert second.returncode == 1
    assert f"another mcpgen is working on this project: pid {first.pid} (`mcpgen generate" in (
        second.stderr
    )
    assert "changed by hand" not in second.stderr
    _, stderr = first.communicate(timeout=120)
    assert first.returncode == 0, stderr
    assert not (project.root / LOCK_PATH).exists(), "released on exit"
    assert run_mcpgen("generate", "--check", str(project.root)).returncode == 0


def test_lock_of_a_killed_process_is_taken_over(project: Run) -> None:
    script = (
        "import sys, time; from pathlib import Path; from mcpgen.write.lock import project_lock\n"
        f"with project_lock(Path({str(project.root)!r})):\n"
        "    print('locked', flush=True); time.sleep(120)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
    blocked = run_mcpgen("generate", str(project.root))
    assert blocked.returncode == 1 and f"pid {holder.pid}" in blocked.stderr
    holder.kill()
    holder.wait(timeout=30)
    assert (project.root / LOCK_PATH).exists(), "a killed holder leaves its lock file"
    done = run_mcpgen("generate", str(project.root))
    assert done.returncode == 0, done.stderr


def test_watch_run_while_a_manual_run_holds_the_lock_names_it(project: Run) -> None:
    from mcpgen.cli.watch import run_once

    project.edit_manifest("tools:\n", PING)
    manual = mcpgen("generate", str(project.root), delay=0.5)
    assert wait_for_journal(project.root, manual)
    watch_console = project.console
    assert not run_once(
        project.root, project.root / "mcpgen.yaml", force=False, console=watch_console
    )
    assert f"pid {manual.pid} (`mcpgen generate" in project.printed
    assert "changed by hand" not in project.printed
    _, stderr = manual.communicate(timeout=120)
    assert manual.returncode == 0, stderr
    assert run_once(project.root, project.root / "mcpgen.yaml", force=False, console=watch_console)


def test_sighup_mid_commit_undoes_everything_and_says_so(project: Run) -> None:
    project.edit_manifest("tools:\n", PING)
    before = snapshot_tree(project.root)
    generate = mcpgen("generate", str(project.root), delay=0.3)
    assert wait_for_journal(project.root, generate)
    time.sleep(0.5)
    generate.send_signal(signal.SIGHUP)
    _, stderr = generate.communicate(timeout=120)
    assert generate.returncode == 128 + signal.SIGHUP, stderr
    assert "interrupted by SIGHUP; every change was undone, nothing was written" in stderr
    assert snapshot_tree(project.root) == before
