"""`mcpgen call` against a real generated server, started from the project's own venv."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
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


def test_a_renamed_tool_answers_its_former_name_unlisted(
    tmp_path: Path, project_venv: ProjectVenv
) -> None:
    """Over real stdio: `renamed_from` keeps old clients working, with one deprecation line
    in the server's log however often they call."""
    from mcp import Client, StdioServerParameters, stdio_client

    from mcpgen.commands.call import project_python

    root = dev_project(tmp_path / "devdemo", project_venv)
    manifest = root / "mcpgen.yaml"
    text = manifest.read_text(encoding="utf-8")
    renamed = text.replace("  - name: greet\n", "  - name: say_hello\n    renamed_from: greet\n")
    prompt = (
        "prompts:\n  - name: brief\n    renamed_from: summary\n    template: 'Brief: {topic}'\n"
        "    arguments: [{name: topic, required: true}]\n"
    )
    manifest.write_text(renamed + prompt, encoding="utf-8")
    run_mcpgen("generate", str(root))
    python, env = project_python(root)
    params = StdioServerParameters(command=python, args=["-m", "devdemo"], env=env)

    async def session(errlog: Any) -> tuple[list[str], list[Any]]:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            listed += [p.name for p in (await client.list_prompts()).prompts]
            got = await client.get_prompt("summary", {"topic": "rain"})
            listed.append(got.messages[0].content.text)  # type: ignore[union-attr]
            answers = [
                await client.call_tool("greet", {"name": "Ada"}),
                await client.call_tool("greet", {"name": "Bob"}),
                await client.call_tool("say_hello", {"name": "Cy"}),
                await client.call_tool("greet", {"name": 5}),
            ]
        return listed, answers

    log = tmp_path / "server.log"
    with log.open("w", encoding="utf-8") as errlog:
        listed, answers = anyio.run(session, errlog)
    assert listed == ["echo", "say_hello", "fail", "brief", "Brief: rain"]
    texts = [answer.content[0].text for answer in answers]
    assert texts[:3] == ["hello Ada", "hello Bob", "hello Cy"]
    assert answers[3].is_error and "Invalid arguments for tool" in texts[3]
    deprecations = [x for x in log.read_text().splitlines() if "deprecated " in x]
    assert len(deprecations) == 2, log.read_text()
    assert "prompt name 'summary' asked for: it is 'brief' now" in deprecations[0]
    assert "tool name 'greet' called: it is 'say_hello' now" in deprecations[1]
