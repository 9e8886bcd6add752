"""Real processes against the catalog sync: `python -m mcpgen generate` moving renamed prompts'
handler files is SIGKILLed mid-commit, and a user saves a completion handler while a run
creates its stub. The next run recovers; every byte the user wrote is still there."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from mcpgen.write.journal import JOURNAL_PATH
from tests.support.generate_processes import USER_MARK, mcpgen, run_mcpgen, wait_for_journal
from tests.support.in_memory import snapshot_tree
from tests.support.sweep import drawn

from .test_races import writer

COUNT = 30
DELAY = 0.01  # seconds per commit step: a window wide enough to land a signal in


def _manifest(renamed: bool) -> str:
    lines = [
        "name: notes",
        "version: 0.1.0",
        "tools:",
        "  - name: ping",
        "    description: Answers pong.",
        "    input_schema: {type: object}",
        "prompts:",
    ]
    for i in range(COUNT):
        name = f"brief_{i:02d}"
        if renamed:
            lines += [f"  - name: digest_{i:02d}", f"    renamed_from: {name}"]
            lines += [f"    python_name: digest_{i:02d}"]
        else:
            lines += [f"  - name: {name}"]
        lines += ["    arguments:", "      - {name: topic, required: true, completions: handler}"]
    return "\n".join(lines) + "\n"


def _user_bytes(root: Path) -> list[bytes]:
    return sorted(
        b for p, b in snapshot_tree(root).items() if USER_MARK.encode() in b and p.endswith(".py")
    )


@pytest.fixture
def notes_project(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "mcpgen.yaml").write_text(_manifest(renamed=False), encoding="utf-8")
    assert run_mcpgen("generate", str(root)).returncode == 0
    for path in (root / "src/notes/handlers").glob("*.py"):
        if path.name.startswith(("brief", "complete")):
            path.write_bytes(path.read_bytes() + f"{USER_MARK}# {path.name}\n".encode())
    (root / "mcpgen.yaml").write_text(_manifest(renamed=True), encoding="utf-8")
    return root


# Where in the commit the kill lands, as a fraction of it: two of them in CI, all in a full run.
@pytest.mark.parametrize("fraction", drawn([0.1, 0.5, 0.9], 2))
def test_sigkill_while_moving_renamed_handlers_loses_no_byte(
    notes_project: Path, fraction: float
) -> None:
    mine = _user_bytes(notes_project)
    assert len(mine) == 2 * COUNT
    process = mcpgen("generate", str(notes_project), delay=DELAY)
    if wait_for_journal(notes_project, process):
        time.sleep(fraction * 2 * COUNT * 3 * DELAY)
        process.send_signal(signal.SIGKILL)
    process.communicate(timeout=120)
    # Mid-commit a file may sit under a staging name: its bytes must be somewhere.
    anywhere = set(snapshot_tree(notes_project).values())
    assert set(mine) <= anywhere, "user bytes lost by the kill"
    pending = (notes_project / JOURNAL_PATH).exists()
    print(f"killed mid-commit: {pending}")
    again = run_mcpgen("generate", str(notes_project))
    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stderr
    assert ("interrupted write" in again.stderr) == pending, again.stderr
    assert _user_bytes(notes_project) == mine, "user bytes lost by the recovery"
    handlers = notes_project / "src/notes/handlers"
    for i in range(COUNT):
        assert USER_MARK in (handlers / f"digest_{i:02d}.py").read_text(encoding="utf-8")
        completer = handlers / f"complete_digest_{i:02d}_topic.py"
        assert USER_MARK in completer.read_text(encoding="utf-8")
    final = run_mcpgen("generate", str(notes_project))
    assert "Up to date" in final.stderr + final.stdout


def test_completion_handler_saved_while_its_stub_is_written_is_kept(notes_project: Path) -> None:
    (notes_project / "mcpgen.yaml").write_text(
        _manifest(renamed=False).replace(
            "completions: handler}",
            "completions: handler}\n      - {name: tone, completions: handler}",
            1,
        ),
        encoding="utf-8",
    )
    target = "src/notes/handlers/complete_brief_00_tone.py"
    data = b"def complete_brief_00_tone(value, arguments):  # saved by the user\n    return []\n"
    racer = writer(
        notes_project,
        "src/notes/handlers/.complete_brief_00_tone.py.*.mcpgen-tmp",
        target,
        data,
        "xb",
    )
    generate = mcpgen("generate", str(notes_project), delay=0.2)
    _, stderr = generate.communicate(timeout=120)
    assert racer.wait(timeout=60) == 0, "the user's save came after mcpgen's stub"
    assert generate.returncode == 0, stderr
    assert (notes_project / target).read_bytes() == data
    assert f"Kept your {target}" in stderr
