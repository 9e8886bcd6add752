"""Property: no sequence of manifest edits and generate runs changes a byte the user wrote.

A simulated user keeps a model of the manifest, applies random edits (add, remove, rename a
tool; add or remove a property; change a description), runs generate, and checks that every
user-owned file is exactly what it last wrote (renamed tools keep their Python names, so
nothing moves), then writes fresh, unique handlers and checks that the generated server still
imports; at the end of each sequence the project's own tests run, and the generated files
equal a fresh render of the same manifest and state.

Some runs are real `mcpgen generate` processes, interrupted at a random point of their
commit by SIGKILL, SIGTERM or SIGINT (the next run recovers), or raced by the user saving a
new tool's handler while the commit runs (the user's file wins).

CI runs two fixed sequences that between them make every edit and every kind of interrupted
run, and one sequence hypothesis draws; `pytest --full` draws 6 (`tests/support/sweep.py`),
and `MCPGEN_PROPERTY_EXAMPLES` sets another count, e.g. `MCPGEN_PROPERTY_EXAMPLES=30 pytest
tests/e2e/generation/test_property.py` for a longer search.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mcpgen.commands.update import (
    RECORD_PATH,
    TemplateRecord,
    render_record,
    update_scaffold,
)
from mcpgen.core.names import class_name, python_identifier
from mcpgen.generation import generate_project
from mcpgen.write.state import STATE_PATH, load_state
from tests.support.generate_processes import mcpgen, wait_for_journal
from tests.support.project_venv import run_mcpgen
from tests.support.sweep import examples

from .test_races import writer

OPS = (
    "add",
    "remove",
    "restore",  # a removed tool comes back under its old name: its orphaned handler is reused
    "rename",
    "add_prop",
    "add_required",
    "remove_prop",
    "describe",
    "update",  # `mcpgen update` from an older template that also had a file at a user path
)
EXAMPLES = int(os.environ.get("MCPGEN_PROPERTY_EXAMPLES", examples(1, 6)))


@dataclass
class ToolModel:
    name: str
    props: dict[str, bool] = field(default_factory=dict)  # property → required
    description: str = "A tool"
    renamed_from: str | None = None
    python_name: str = ""

    def __post_init__(self) -> None:
        self.python_name = self.python_name or python_identifier(self.name)

    def raw(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {p: {"type": "string"} for p in self.props},
        }
        required = [p for p, needed in self.props.items() if needed]
        if required:
            schema["required"] = required
        tool: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "input_schema": schema,
        }
        if self.renamed_from:
            tool["renamed_from"] = self.renamed_from
        return tool


class User:
    """The simulated user: owns the manifest model and remembers what it wrote."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tools: list[ToolModel] = [ToolModel("tool_0", {"a": True})]
        self.counter = 1
        self.expected: dict[str, bytes] = {}  # user-owned path → bytes the user last saw/wrote
        self.removed: list[ToolModel] = []

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}_{self.counter}"

    def write_manifest(self) -> None:
        data = {"name": "prop", "version": "0.1.0", "tools": [t.raw() for t in self.tools]}
        (self.root / "mcpgen.yaml").write_text(json.dumps(data, indent=2))

    def user_paths(self, tool: ToolModel) -> tuple[str, str]:
        ident = tool.python_name
        return f"src/prop/handlers/{ident}.py", f"tests/test_{ident}.py"

    def edit(self, op: str, pick: int) -> None:
        for tool in self.tools:
            tool.renamed_from = None  # the user drops old renamed_from keys once applied
        target = self.tools[pick % len(self.tools)] if self.tools else None
        if op == "add" or target is None:
            self.tools.append(ToolModel(self.fresh("tool"), {"x": False}))
        elif op == "remove" and len(self.tools) > 1:
            self.tools.remove(target)
            self.removed.append(target)
        elif op == "restore" and self.removed:
            back = self.removed.pop(pick % len(self.removed))
            # Back under its name, with the Python name that name gives (the state forgot it).
            self.tools.append(ToolModel(back.name, back.props, back.description))
        elif op == "rename":  # stable names: the handler keeps its module and function
            target.renamed_from, target.name = target.name, self.fresh("renamed")
        elif op in ("add_prop", "add_required"):
            target.props[self.fresh("p")] = op == "add_required"
        elif op == "remove_prop" and target.props:
            target.props.pop(sorted(target.props)[pick % len(target.props)])
        else:
            target.description = f"Described {self.fresh('d')}"

    def check_user_files(self) -> None:
        for path, content in self.expected.items():
            assert (self.root / path).read_bytes() == content, f"user file changed: {path}"
        for tool in self.tools:  # stubs mcpgen created this run: the user now owns them
            for path in self.user_paths(tool):
                self.expected.setdefault(path, (self.root / path).read_bytes())

    def write_user_code(self) -> None:
        """A fresh handler and user test per tool, as a user following the summary would."""
        for tool in self.tools:
            ident = tool.python_name
            model = f"{class_name(ident)}Input"
            handler = (
                f'"""Handler written by the user, version {self.fresh("v")}."""\n\n'
                f"from prop._generated.models import {model}\n\n\n"
                f"async def {ident}(args: {model}) -> str:\n"
                f"    return {tool.name!r}\n"
            )
            arguments = {prop: "v" for prop in tool.props}
            test = (
                f'"""Test written by the user, version {self.fresh("v")}."""\n\n'
                "import asyncio\n\n"
                f"from prop._generated.models import {model}\n"
                f"from prop.handlers.{ident} import {ident}\n\n\n"
                f"def test_{ident}() -> None:\n"
                f"    assert asyncio.run({ident}({model}(**{arguments!r}))) == {tool.name!r}\n"
            )
            for path, text in zip(self.user_paths(tool), (handler, test), strict=True):
                (self.root / path).write_text(text)
                self.expected[path] = text.encode()

    def follow_orphan_report(self, orphans: tuple[str, ...]) -> None:
        """Removed tools' handlers must be reported; the user deletes the reported tests."""
        for tool in self.removed:
            handler = self.user_paths(tool)[0]
            if (self.root / handler).exists():
                assert handler in orphans, f"orphaned handler not reported: {handler}"
        for path in orphans:
            if path.startswith("tests/"):
                (self.root / path).unlink()
                self.expected.pop(path, None)


def _run_python(root: Path, *args: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    done = subprocess.run(
        [sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def _server_imports(root: Path) -> None:
    _run_python(root, "-c", "import prop._generated.server")


def _project_tests_pass(root: Path) -> None:
    _run_python(root, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")


# How a step's generate runs: in process, or as a real process that is interrupted at a random
# point of its commit, or raced by the user saving a new tool's handler while it commits.
HOW = ("plain", "plain", "kill", "term", "int", "race")
_SIGNALS = {"kill": signal.SIGKILL, "term": signal.SIGTERM, "int": signal.SIGINT}
STEP_DELAY = 0.03
RACED = b"def saved_while_generate_ran(args):  # by the user\n    return 'mine'\n"


def _interrupted_or_raced(user: User, how: str, fraction: float) -> None:
    """One real `mcpgen generate` process, signalled or raced; the next run recovers."""
    racer = None
    if how == "race":
        fresh = [t for t in user.tools if not (user.root / user.user_paths(t)[0]).exists()]
        if fresh:
            handler = user.user_paths(fresh[0])[0]
            pattern = str(PurePosixPath(handler).with_name(f".{PurePosixPath(handler).name}.*"))
            racer = writer(user.root, pattern, handler, RACED, "xb")
    process = mcpgen("generate", str(user.root), delay=STEP_DELAY)
    if how in _SIGNALS and wait_for_journal(user.root, process):
        time.sleep(fraction * 20 * STEP_DELAY)
        process.send_signal(_SIGNALS[how])
    _, stderr = process.communicate(timeout=300)
    assert "Traceback" not in stderr, stderr
    if racer is not None:
        assert racer.wait(timeout=60) == 0, "the user's save came after mcpgen's stub"
        user.expected[handler] = RACED
    if how in ("term", "int") and process.returncode != 0:  # undone, or landed once done
        said = ("nothing was written", "after every change was written", "\nWrote ")
        assert any(s in stderr for s in said) or process.returncode == -signal.SIGTERM, stderr


def _generated_equal_a_fresh_render(root: Path) -> None:
    """The settled tree's generated files are what a fresh render of the same manifest and
    state (the state holds the stable Python names) writes into an empty folder."""
    fresh = root.parent / f"{root.name}-fresh"
    (fresh / ".mcpgen").mkdir(parents=True)
    shutil.copy2(root / "mcpgen.yaml", fresh / "mcpgen.yaml")
    shutil.copy2(root / STATE_PATH, fresh / STATE_PATH)
    generate_project(fresh)
    state = load_state(root)
    assert state is not None
    for path in state.files:
        if not path.startswith("hosts/"):  # machine-specific: holds the project's own path
            assert (root / path).read_bytes() == (fresh / path).read_bytes(), path


def _git(root: Path, *args: str) -> None:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    subprocess.run(command, cwd=root, check=True, capture_output=True)


def _new_project(user: User) -> None:
    """`mcpgen new --manifest` (a scaffold, a template record, a first generate), in git."""
    user.root.mkdir(parents=True)
    manifest = user.root.parent / "start.yaml"
    user.write_manifest()
    shutil.move(user.root / "mcpgen.yaml", manifest)
    user.root.rmdir()
    run_mcpgen("new", "--manifest", str(manifest), "--dir", str(user.root), "--no-git")
    _git(user.root, "init", "-q")
    _commit(user.root)


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project every sequence starts from, made once by `mcpgen new`: each sequence
    edits a copy (the project holds no path of its own, so a copy is the same project)."""
    user = User(tmp_path_factory.mktemp("started") / "project")
    _new_project(user)
    return user.root


def _commit(root: Path) -> None:
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "step", "--allow-empty")


def _update_from_an_older_template(user: User, pick: int) -> None:
    """The project's recorded template gets an older README and, at one tool's handler
    path, a file the new template no longer has: update merges the README and must neither
    delete nor change the handler, nor re-create anything at a user path."""
    _commit(user.root)
    record = json.loads((user.root / RECORD_PATH).read_text())
    files = dict(record["template"])
    files["README.md.jinja"] = files["README.md.jinja"] + "An older line.\n"
    victim = user.tools[pick % len(user.tools)].python_name
    files[f"src/{{{{ package }}}}/handlers/{victim}.py.jinja"] = "an old example handler\n"
    (user.root / RECORD_PATH).write_text(render_record(TemplateRecord("0.0.1", files)))
    _commit(user.root)
    before = {p: (user.root / p).read_bytes() for p in user.expected}
    result = update_scaffold(user.root)
    assert not result.conflicts, result
    assert {p: (user.root / p).read_bytes() for p in user.expected} == before
    _commit(user.root)


EXAMPLES_RUN: list[int] = []


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# Every edit, and every way a run is interrupted or raced, in CI's fixed sequences.
@example(
    edits=[
        ("add", 0, "race", 0.0),
        ("rename", 1, "kill", 0.5),
        ("remove", 0, "term", 0.3),
        ("restore", 0, "int", 0.6),
        ("update", 1, "plain", 0.0),
    ]
)
@example(
    edits=[
        ("add_prop", 0, "plain", 0.0),
        ("add_required", 1, "kill", 0.9),
        ("remove_prop", 0, "term", 0.1),
        ("describe", 0, "int", 0.2),
    ]
)
@given(
    edits=st.lists(
        st.tuples(
            st.sampled_from(OPS),
            st.integers(0, 9),
            st.sampled_from(HOW),
            st.floats(0, 1),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_user_files_survive_any_edit_sequence(
    tmp_path_factory: pytest.TempPathFactory,
    started: Path,
    edits: list[tuple[str, int, str, float]],
) -> None:
    EXAMPLES_RUN.append(len(edits))
    user = User(tmp_path_factory.mktemp("prop") / "project")
    shutil.copytree(started, user.root, symlinks=True)
    user.check_user_files()
    user.write_user_code()
    for op, pick, how, fraction in edits:
        user.edit(op, pick)
        user.write_manifest()
        if how != "plain":
            _interrupted_or_raced(user, how, fraction)
        report = generate_project(user.root)  # recovers, then completes
        assert not list(user.root.rglob("*.mcpgen-*")), "leftovers are cleaned"
        user.check_user_files()
        user.follow_orphan_report(report.orphans)
        user.write_user_code()
        if op == "update":
            _update_from_an_older_template(user, pick)
            user.check_user_files()
        _server_imports(user.root)
    assert not generate_project(user.root).written  # and it settles
    _generated_equal_a_fresh_render(user.root)
    _project_tests_pass(user.root)
    print(f"\nproperty examples so far: {len(EXAMPLES_RUN)}")
