"""A no-change run proven from the run cache decides exactly what a full run would.

Each case changes one thing a run reads (or nothing), then runs generate with the cache and
without it on the same disk and compares everything the two decide and print. Only the
unchanged project may be answered from the record; any change must reach the full run.
"""

from __future__ import annotations

import io
import json
import shutil
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from mcpgen.cli.present import print_report
from mcpgen.core.header import GENERATED_HEADER
from mcpgen.errors import McpgenError
from mcpgen.generation import engine, generate_project, run_cache
from mcpgen.write.journal import JOURNAL_PATH
from mcpgen.write.state import STATE_PATH
from tests.support.demo_project import MANIFEST, Run

TOOLS = "src/demo/_generated/tools.py"
HANDLER = "src/demo/handlers/get_alerts.py"
RESOURCE_MANIFEST = MANIFEST + (
    "resources:\n  - uri: docs://readme\n    name: readme\n    file: docs/readme.md\n"
)


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv(run_cache.CACHE_ENV, str(folder))
    monkeypatch.delenv(run_cache.DISABLE_ENV, raising=False)
    yield folder


def _outcome(root: Path, mode: engine.Mode) -> tuple[object, ...]:
    """Everything a run decides and prints, or the error it stops with."""
    try:
        report = generate_project(root, mode=mode)
    except McpgenError as error:
        return ("error", error.exit_code, error.message)
    buffer = io.StringIO()
    print_report(Console(file=buffer, width=200, color_system=None), report)
    return (
        buffer.getvalue(),
        [(a.kind, a.path, a.owner) for a in report.applied.actions],
        report.stale,
        report.orphans,
        report.old_packages,
        report.warnings,
        report.written,
    )


def _without_cache(root: Path, mode: engine.Mode, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as patched:
        patched.setenv(run_cache.DISABLE_ENV, "1")
        return _outcome(root, mode)


def _full_runs(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Counts the runs that really prepare a plan (the ones the cache did not answer)."""
    calls: list[Path] = []
    real = engine.prepare

    def counting(root: Path, **options: object) -> engine.Prepared:
        calls.append(root)
        return real(root, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "prepare", counting)
    return calls


def _hits(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Counts the runs the record answered."""
    hits: list[Path] = []
    real = run_cache.lookup

    def counting(root: Path, key: str, manifest: bytes) -> run_cache.Outcome | None:
        outcome = real(root, key, manifest)
        if outcome is not None:
            hits.append(root)
        return outcome

    monkeypatch.setattr(run_cache, "lookup", counting)
    return hits


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _hostile_state(root: Path) -> None:
    state = json.loads((root / STATE_PATH).read_text())
    state["files"]["../../outside.py"] = "0" * 64
    (root / STATE_PATH).write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")


def _old_package(root: Path) -> None:
    folder = root / "src/legacy/_generated"
    folder.mkdir(parents=True)
    (folder / "server.py").write_text(GENERATED_HEADER + "\n")


def _orphan_with_test(root: Path) -> None:
    (root / "src/demo/handlers/retired.py").write_text("def retired() -> None: ...\n")
    (root / "tests/test_retired.py").write_text("def test_it() -> None: ...\n")


def _handlers_outside(root: Path) -> None:
    outside = root.parent / f"{root.name}-handlers"
    shutil.move(root / "src/demo/handlers", outside)
    (root / "src/demo/handlers").symlink_to(outside, target_is_directory=True)


def _dangling_handler(root: Path) -> None:
    (root / HANDLER).unlink()
    (root / HANDLER).symlink_to(root / "nowhere.py")


def _unfinished_journal(root: Path) -> None:
    (root / JOURNAL_PATH).write_text('{"version": 1, "steps": []}\n')


CHANGES: dict[str, Callable[[Path], object]] = {
    "a generated file edited by hand": lambda r: _edit(r / TOOLS, "get_forecast", "get_forecast2"),
    "a generated file deleted": lambda r: (r / TOOLS).unlink(),
    "a generated file made a symlink": lambda r: _symlink_in_place(r / TOOLS),
    "a handler deleted": lambda r: (r / HANDLER).unlink(),
    "a handler made a dangling symlink": _dangling_handler,
    "an orphaned handler and its test added": _orphan_with_test,
    "the manifest edited": lambda r: _edit(r / "mcpgen.yaml", "Alerts for", "Warnings for"),
    "a tool added to the manifest": lambda r: _edit(
        r / "mcpgen.yaml", "tools:\n", "tools:\n  - name: ping\n    description: Ping\n"
    ),
    "a broken manifest": lambda r: _edit(r / "mcpgen.yaml", "tools:", "tools: [\n"),
    "a hostile state file": _hostile_state,
    "the state file deleted": lambda r: (r / STATE_PATH).unlink(),
    "another package in copier's answers": lambda r: (r / ".copier-answers.yml").write_text(
        "package: other\n"
    ),
    "a path in copier's answers": lambda r: (r / ".copier-answers.yml").write_text(
        "package: ../../etc\n"
    ),
    "a killed run's journal": _unfinished_journal,
    "the handlers folder a symlink out of the project": _handlers_outside,
    "an old generated package under src/": _old_package,
}


def _symlink_in_place(path: Path) -> None:
    copy = path.with_name("copy_of_tools.py")
    shutil.copy(path, copy)
    path.unlink()
    path.symlink_to(copy)


def test_an_unchanged_project_is_answered_from_the_record(
    project: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    full, hits = _full_runs(monkeypatch), _hits(monkeypatch)
    proven = _outcome(project.root, "write")
    assert full == []  # nothing loaded, validated or rendered
    assert hits == [project.root]
    assert proven == _without_cache(project.root, "write", monkeypatch)
    assert "Up to date: nothing to write." in str(proven[0])


def test_saving_the_manifest_unchanged_still_proves_it(
    project: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = project.root / "mcpgen.yaml"
    manifest.write_bytes(manifest.read_bytes())  # a new mtime, the same bytes
    full = _full_runs(monkeypatch)
    generate_project(project.root)
    assert full == []


@pytest.mark.parametrize("mode", ["write", "check"])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_any_change_gets_the_full_runs_answer(
    project: Run, change: str, mode: engine.Mode, monkeypatch: pytest.MonkeyPatch
) -> None:
    twin = project.root.parent / "twin"
    shutil.copytree(project.root, twin, symlinks=True)
    CHANGES[change](project.root)
    CHANGES[change](twin)
    hits = _hits(monkeypatch)
    with_cache = _outcome(project.root, mode)
    assert hits == [], "the change was answered from the record"
    # The twin never had a record: its full run is the reference, paths aside.
    reference = _without_cache(twin, mode, monkeypatch)
    assert repr(with_cache).replace(str(project.root), "ROOT") == repr(reference).replace(
        str(twin), "ROOT"
    )


def test_a_changed_resource_file_is_regenerated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = Run(tmp_path / "demo")
    (run.root / "docs").mkdir(parents=True)
    (run.root / "docs/readme.md").write_text("first\n")
    run.manifest(RESOURCE_MANIFEST)
    run()
    full = _full_runs(monkeypatch)
    assert not generate_project(run.root).written
    assert full == []
    (run.root / "docs/readme.md").write_text("second\n")
    report = generate_project(run.root)
    assert full == [run.root]
    assert report.written


def test_a_new_mcpgen_build_decides_again(project: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_cache, "build_id", lambda: "another release")
    full = _full_runs(monkeypatch)
    generate_project(project.root)
    assert full == [project.root]


def test_a_run_elsewhere_names_the_manifest_its_own_way(
    project: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Diagnostics name the manifest relative to the working folder: another folder, another
    record."""
    monkeypatch.chdir(project.root.parent)
    full = _full_runs(monkeypatch)
    generate_project(project.root)
    assert full == [project.root]


@pytest.mark.parametrize("damage", ["garbage", "world-writable", "other fingerprint", "wrong"])
def test_a_damaged_record_is_ignored(
    project: Run, own_cache: Path, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (record,) = (own_cache / "runs").glob("*.json")
    data = json.loads(record.read_text())
    if damage == "garbage":
        record.write_text("{not json")
    elif damage == "world-writable":
        record.chmod(record.stat().st_mode | stat.S_IWOTH)
    elif damage == "other fingerprint":
        data["fingerprint"] = "0" * 64
        record.write_text(json.dumps(data))
    else:
        data["outcome"]["kept"] = [["x", "not an owner"]]
        record.write_text(json.dumps(data))
    full = _full_runs(monkeypatch)
    outcome = _outcome(project.root, "check")
    assert full == [project.root]
    assert outcome == _without_cache(project.root, "check", monkeypatch)


def test_a_cloned_project_has_no_record(project: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    clone = project.root.parent / "clone"
    shutil.copytree(project.root, clone)
    full = _full_runs(monkeypatch)
    generate_project(clone)
    assert full == [clone]


def test_a_record_is_kept_only_for_a_clean_run(
    project: Run, own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.rmtree(own_cache)
    _edit(project.root / TOOLS, "get_forecast", "get_forecast2")
    with pytest.raises(McpgenError):
        generate_project(project.root)  # refused: a hand edit
    assert not (own_cache / "runs").exists()
    generate_project(project.root, mode="check")
    assert not (own_cache / "runs").exists()


def test_turned_off_by_the_environment(project: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(run_cache.DISABLE_ENV, "1")
    full = _full_runs(monkeypatch)
    generate_project(project.root)
    assert full == [project.root]
