"""The generated runtime, through real handlers in a real project: every result kind a
handler may return, every failure (exception, timeout, bad output, stub) as a tool error, and
verdicts over real stdio equal to the reference validator's."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator, validators

from mcpgen.runtime.testing.schema_cases import Case, cases
from mcpgen.runtime.validation.ecma_regex import with_ecma_regex
from tests.support.project_venv import ProjectVenv, manifest_wire_tools, run_mcpgen
from tests.support.runtime.stdio_session import Session

CASE = Path(__file__).parent / "runtime_case"
# Tools whose handlers answer at once whatever they are given; drawn arguments per tool.
SAMPLED_TOOLS = ("letters", "tagged", "measure", "echo_sync")
SAMPLES_PER_TOOL = int(os.environ.get("MCPGEN_STDIO_VERDICT_EXAMPLES", "25"))


@pytest.fixture(scope="module")
def case_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runtime") / "runtime-case"
    run_mcpgen(
        "new", "--manifest", str(CASE / "mcpgen.yaml"), "--dir", str(root), "--no-input", "--no-git"
    )
    handlers = root / "src" / "runtime_case" / "handlers"
    for handler in (CASE / "handlers").glob("*.py"):
        shutil.copyfile(handler, handlers / handler.name)  # the user writes their handlers
        (root / "tests" / f"test_{handler.name}").unlink()  # ... and their own tests
    shutil.copyfile(CASE / "behaviour.py", root / "tests" / "test_behaviour.py")
    return root


def test_handler_outcomes(case_project: Path, project_venv: ProjectVenv) -> None:
    done = project_venv.pytest(case_project, with_src=True)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "failed" not in done.stdout


def drawn(schema: dict[str, Any]) -> list[Case]:
    found: list[Case] = []

    @settings(
        max_examples=SAMPLES_PER_TOOL,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases(schema))
    def collect(case: Case) -> None:
        found.append(case)

    collect()
    return found


def schema_accepts(schema: dict[str, Any], instance: Any) -> bool:
    cls = validators.validator_for(schema, default=Draft202012Validator)
    return bool(with_ecma_regex(cls)(schema).is_valid(instance))


def test_stdio_verdicts_equal_the_reference(
    case_project: Path, project_venv: ProjectVenv, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {**os.environ, "PYTHONPATH": str(case_project / "src")}
    judged: Counter[tuple[str, str]] = Counter()
    disagreements = []
    with Session.open([str(project_venv.python), "-m", "runtime_case"], env) as session:
        listed = session.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        tools = listed["result"]["tools"]
        assert tools == manifest_wire_tools(case_project / "mcpgen.yaml")  # `category` included
        schemas = {tool["name"]: tool["inputSchema"] for tool in tools}
        sample = [(tool, case) for tool in SAMPLED_TOOLS for case in drawn(schemas[tool])]
        for number, (name, case) in enumerate(sample):
            params = {"name": name, "arguments": case.instance}
            answer = session.request(
                {"jsonrpc": "2.0", "id": 10 + number, "method": "tools/call", "params": params}
            )
            assert "result" in answer, answer  # a verdict is a tool result, never a protocol error
            result = answer["result"]
            refused = bool(result.get("isError")) and result["content"][0]["text"].startswith(
                "Invalid arguments"
            )
            judged[case.category, "refused" if refused else "accepted"] += 1
            if refused == schema_accepts(schemas[name], case.instance):
                disagreements.append((name, case, result))
    with capsys.disabled():
        print(f"\nstdio verdicts by category (accepted, refused): {dict(sorted(judged.items()))}")
    assert sum(judged.values()) >= len(SAMPLED_TOOLS)
    assert disagreements == []
