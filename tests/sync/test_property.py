"""Property: no sequence of manifest edits and generate runs changes a byte the user wrote.

A simulated user keeps a model of the manifest, applies random edits (add, remove, rename a
tool; add or remove a property; change a description), runs generate, and checks that every
user-owned file is exactly what it last wrote (following moves of renamed tools), then writes
fresh, unique handlers and checks that the generated server still imports; at the end of each
sequence the project's own tests run.

`MCPGEN_PROPERTY_EXAMPLES` sets how many sequences hypothesis tries (default 6, for CI);
e.g. `MCPGEN_PROPERTY_EXAMPLES=30 pytest tests/sync/test_property.py` for a longer search.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpgen.names import class_name, python_identifier
from mcpgen.sync import generate_project

pytestmark = pytest.mark.e2e

OPS = (
    "add",
    "remove",
    "restore",  # a removed tool comes back under its old name: its orphaned handler is reused
    "rename",
    "add_prop",
    "add_required",
    "remove_prop",
    "describe",
)
EXAMPLES = int(os.environ.get("MCPGEN_PROPERTY_EXAMPLES", "6"))


@dataclass
class ToolModel:
    name: str
    props: dict[str, bool] = field(default_factory=dict)  # property → required
    description: str = "A tool"
    renamed_from: str | None = None

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
        self.pending_moves: list[tuple[str, str]] = []

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}_{self.counter}"

    def write_manifest(self) -> None:
        data = {"name": "prop", "version": "0.1.0", "tools": [t.raw() for t in self.tools]}
        (self.root / "mcpgen.yaml").write_text(json.dumps(data, indent=2))

    def user_paths(self, tool: str) -> tuple[str, str]:
        ident = python_identifier(tool)
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
            self.tools.append(self.removed.pop(pick % len(self.removed)))
        elif op == "rename":
            new = self.fresh("renamed")
            for old_path, new_path in zip(
                self.user_paths(target.name), self.user_paths(new), strict=True
            ):
                if (self.root / old_path).exists() and not (self.root / new_path).exists():
                    self.pending_moves.append((old_path, new_path))
            target.renamed_from, target.name = target.name, new
        elif op in ("add_prop", "add_required"):
            target.props[self.fresh("p")] = op == "add_required"
        elif op == "remove_prop" and target.props:
            target.props.pop(sorted(target.props)[pick % len(target.props)])
        else:
            target.description = f"Described {self.fresh('d')}"

    def check_user_files(self) -> None:
        for old, new in self.pending_moves:
            self.expected[new] = self.expected.pop(old)
        self.pending_moves.clear()
        for path, content in self.expected.items():
            assert (self.root / path).read_bytes() == content, f"user file changed: {path}"
        for tool in self.tools:  # stubs mcpgen created this run: the user now owns them
            for path in self.user_paths(tool.name):
                self.expected.setdefault(path, (self.root / path).read_bytes())

    def write_user_code(self) -> None:
        """A fresh handler and user test per tool, as a user following the summary would."""
        for tool in self.tools:
            ident = python_identifier(tool.name)
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
            for path, text in zip(self.user_paths(tool.name), (handler, test), strict=True):
                (self.root / path).write_text(text)
                self.expected[path] = text.encode()

    def follow_orphan_report(self, orphans: tuple[str, ...]) -> None:
        """Removed tools' handlers must be reported; the user deletes the reported tests."""
        for tool in self.removed:
            handler = self.user_paths(tool.name)[0]
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


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 9)), min_size=1, max_size=5))
def test_user_files_survive_any_edit_sequence(
    tmp_path_factory: pytest.TempPathFactory, edits: list[tuple[str, int]]
) -> None:
    user = User(tmp_path_factory.mktemp("prop"))
    user.write_manifest()
    generate_project(user.root)
    user.check_user_files()
    user.write_user_code()
    for op, pick in edits:
        user.edit(op, pick)
        user.write_manifest()
        report = generate_project(user.root)
        user.check_user_files()
        user.follow_orphan_report(report.orphans)
        user.write_user_code()
        _server_imports(user.root)
    assert not generate_project(user.root).written  # and it settles
    _project_tests_pass(user.root)
