"""`mcpgen call` against a real generated server, started from the project's own venv."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.dev_project import dev_project
from tests.support.project_venv import ProjectVenv, run_mcpgen


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, project_venv: ProjectVenv) -> Path:
    return dev_project(tmp_path_factory.mktemp("call") / "devdemo", project_venv)


def test_structured_content_is_the_one_json_document(project: Path) -> None:
    done = run_mcpgen("call", "echo", "--args", '{"text": "héllo"}', str(project))
    assert json.loads(done.stdout) == {"text": "héllo", "length": 5}


def test_text_is_printed_as_a_json_string(project: Path) -> None:
    done = run_mcpgen("call", "greet", "--args", '{"name": "Ada"}', str(project))
    assert done.stdout == '"hello Ada"\n'


def test_without_arguments(project: Path) -> None:
    assert json.loads(run_mcpgen("call", "greet", str(project)).stdout) == "hello world"


def test_without_a_tool_lists_the_tools(project: Path) -> None:
    done = run_mcpgen("call", cwd=project)
    assert done.stdout.splitlines() == [
        "echo  Echo the text back, with its length.",
        "greet  Say hello.",
        "fail  Always fails.",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("fail",), "fail: Tool 'fail' failed: ValueError"),
        (("nope",), "nope: Unknown tool: nope"),
        (("echo", "--args", '{"text": 5}'), "Invalid arguments for tool 'echo'"),
        (("echo", "--args", "{}"), "Invalid arguments for tool 'echo'"),
    ],
)
def test_errors_exit_1_with_the_message_on_stderr(
    project: Path, args: tuple[str, ...], message: str
) -> None:
    done = run_mcpgen("call", *args, str(project), check=False)
    assert done.returncode == 1
    assert done.stdout == ""
    assert message in done.stderr
