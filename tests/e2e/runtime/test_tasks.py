"""Tools with `execution.taskSupport` run as MCP tasks, against real generated server processes
and the real `mcp` client: the 2026-07-28 tasks extension over Streamable HTTP (a result
claim of the client's resolves the task by polling `tasks/get`), the 2025-11-25 tasks methods
over stdio and HTTP, and a task that outlives the client that started it."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import anyio
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.shared.exceptions import MCPError
from mcp.types import (
    CallToolResult,
    CancelTaskRequest,
    CancelTaskRequestParams,
    ElicitResult,
    GetTaskPayloadRequest,
    GetTaskPayloadRequestParams,
    GetTaskRequest,
    GetTaskRequestParams,
    ListTasksRequest,
    Request,
    RequestParams,
    Result,
    TextContent,
)
from pydantic import Field, TypeAdapter

from tests.support.project_venv import ProjectVenv, free_port, run_mcpgen, wait_for_port

pytestmark = pytest.mark.anyio

MANIFEST = """\
name: chores
version: 0.1.0
tools:
  - name: quick
    description: Answers at once.
    input_schema:
      type: object
      properties: {name: {type: string}}
      required: [name]
  - name: bake
    description: Bakes for the given seconds.
    execution: {taskSupport: optional}
    input_schema:
      type: object
      properties: {seconds: {type: number, minimum: 0}}
      required: [seconds]
  - name: audit
    description: Runs only as a task, and asks the user to go ahead first.
    execution: {taskSupport: required}
    input_schema: {type: object}
"""
HANDLERS = {
    "quick": """\
def quick(args):
    return "hi " + args.name
""",
    "bake": """\
import anyio


async def bake(args, ctx):
    await anyio.sleep(args.seconds)
    return f"baked in {args.seconds:g} s"
""",
    "audit": """\
GO = {"type": "object", "properties": {"go": {"type": "boolean"}}}


async def audit(args, ctx):
    await ctx.begin_task()
    answer = await ctx.elicit("Audit now?", GO, key="go")
    return "audited" if (answer.content or {}).get("go") else "skipped"
""",
}
TASKS = "io.modelcontextprotocol/tasks"
RAW = TypeAdapter(dict[str, Any])


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def chores(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tasks") / "chores"
    manifest = root.parent / "mcpgen.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    run_mcpgen("new", "--manifest", str(manifest), "--dir", str(root), "--no-input", "--no-git")
    for name, code in HANDLERS.items():
        (root / "src" / "chores" / "handlers" / f"{name}.py").write_text(code, encoding="utf-8")
    return root


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(root / "src")}


@pytest.fixture(scope="module")
def url(chores: Path, project_venv: ProjectVenv) -> Iterator[str]:
    """The server on Streamable HTTP, for the whole module: tasks outlive their clients."""
    port = free_port()
    command = [str(project_venv.python), "-m", "chores", "--transport", "http", "--port", str(port)]
    process = subprocess.Popen(command, env=_env(chores), stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


# The 2026-07-28 side: a client that takes tasks, as an extension of the real client.


class TaskParams(RequestParams):
    task_id: str = Field(alias="taskId")


class UpdateParams(TaskParams):
    input_responses: dict[str, Any] = Field(alias="inputResponses")


class TasksGet(Request[TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: TaskParams
    name_param = "taskId"


class TasksUpdate(Request[UpdateParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    params: UpdateParams
    name_param = "taskId"


class TasksCancel(Request[TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: TaskParams
    name_param = "taskId"


class CreatedTask(Result):
    """The 2026-07-28 `CreateTaskResult`: the task's fields, flat."""

    result_type: Literal["task"] = "task"
    task_id: str = Field(alias="taskId")
    status: str
    ttl_ms: int | None = Field(default=None, alias="ttlMs")
    poll_interval_ms: int | None = Field(default=None, alias="pollIntervalMs")


async def send(client: Client | ClientSession, request: Request[Any, Any]) -> dict[str, Any]:
    """A request's result as the raw JSON it came in (the SDK's task models hold less)."""
    session = client.session if isinstance(client, Client) else client
    found: dict[str, Any] = await session.send_request(request, RAW)  # type: ignore[type-var]
    return found


async def task_get(client: Client | ClientSession, task_id: str) -> dict[str, Any]:
    return await send(client, TasksGet(params=TaskParams(taskId=task_id)))


async def settled(
    client: Client, task_id: str, until: frozenset[str] | None = None
) -> dict[str, Any]:
    """`tasks/get` until the task is terminal (or in one of `until`)."""
    wanted = until or frozenset({"completed", "failed", "cancelled"})
    with anyio.fail_after(20):
        while True:
            found = await task_get(client, task_id)
            if found["status"] in wanted:
                return found
            await anyio.sleep(0.1)


async def _resolve(created: CreatedTask, ctx: ClaimContext) -> CallToolResult:
    """The client's part of the extension: poll the task, then take its inlined result."""
    with anyio.fail_after(20):
        while True:
            found = await task_get(ctx.session, created.task_id)
            if found["status"] == "completed":
                return CallToolResult.model_validate(found["result"])
            assert found["status"] == "working", found
            await anyio.sleep((created.poll_interval_ms or 100) / 1000)


class TakesTasks(ClientExtension):
    identifier = TASKS

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=_resolve)]


async def _no_answer(context: Any, params: Any) -> ElicitResult:
    """Declares elicitation; a task's questions come through `tasks/get` instead."""
    return ElicitResult(action="decline")


def modern(url: str, *, tasks: bool = True) -> Client:
    return Client(
        url,
        extensions=[TakesTasks()] if tasks else None,
        elicitation_callback=_no_answer,
        read_timeout_seconds=30,
    )


def text(result: CallToolResult) -> str:
    (block,) = result.content
    assert isinstance(block, TextContent)
    return block.text


async def test_a_long_call_becomes_a_task_the_client_resolves(url: str) -> None:
    async with modern(url) as client:
        assert client.protocol_version == "2026-07-28"
        assert TASKS in (client.server_capabilities.extensions or {})
        listed = {t.name: t for t in (await client.list_tools()).tools}
        assert listed["bake"].execution is not None
        assert listed["bake"].execution.task_support == "optional"
        assert text(await client.call_tool("quick", {"name": "Ann"})) == "hi Ann"
        created = await client.session.call_tool("bake", {"seconds": 1}, allow_claimed=True)
        assert isinstance(created, CreatedTask) and created.status == "working"
        assert created.ttl_ms and created.poll_interval_ms
        done = await settled(client, created.task_id)
        assert done["result"]["content"] == [{"type": "text", "text": "baked in 1 s"}]
        # The client's claim resolves a task by itself: call_tool returns the tool's result.
        assert text(await client.call_tool("bake", {"seconds": 0.6})) == "baked in 0.6 s"


async def test_a_call_that_finishes_at_once_is_answered_inline(url: str) -> None:
    async with modern(url) as client:
        answered = await client.session.call_tool("bake", {"seconds": 0}, allow_claimed=True)
        assert isinstance(answered, CallToolResult)
        assert text(answered) == "baked in 0 s"


async def test_without_the_extension_optional_runs_plainly_and_required_is_refused(
    url: str,
) -> None:
    async with modern(url, tasks=False) as client:
        assert text(await client.call_tool("bake", {"seconds": 0.4})) == "baked in 0.4 s"
        with pytest.raises(MCPError) as refused:
            await client.call_tool("audit", {})
        assert refused.value.code == -32021
        assert refused.value.error.data == {"requiredCapabilities": {"extensions": {TASKS: {}}}}
        with pytest.raises(MCPError) as gated:
            await task_get(client, "whatever")
        assert gated.value.code == -32021


async def test_a_task_outlives_the_client_that_started_it(url: str) -> None:
    async with modern(url) as first:
        created = await first.session.call_tool("bake", {"seconds": 1.5}, allow_claimed=True)
        assert isinstance(created, CreatedTask)
    # The first client is gone, its connection closed; the task goes on without it.
    await anyio.sleep(0.2)
    async with modern(url) as second:
        assert (await task_get(second, created.task_id))["status"] == "working"
        done = await settled(second, created.task_id)
    assert done["status"] == "completed"
    assert done["result"]["content"][0]["text"] == "baked in 1.5 s"


async def test_questions_wait_in_the_task_until_tasks_update_answers_them(url: str) -> None:
    async with modern(url) as client:
        created = await client.session.call_tool("audit", {}, allow_claimed=True)
        assert isinstance(created, CreatedTask)
        asking = await settled(client, created.task_id, frozenset({"input_required"}))
        assert list(asking["inputRequests"]) == ["go"]
        assert asking["inputRequests"]["go"]["method"] == "elicitation/create"
        answer = {"go": {"action": "accept", "content": {"go": True}}}
        update = TasksUpdate(params=UpdateParams(taskId=created.task_id, inputResponses=answer))
        ack = await send(client, update)
        assert ack["resultType"] == "complete" and "status" not in ack
        done = await settled(client, created.task_id)
        assert done["result"]["content"][0]["text"] == "audited"


async def test_a_cancelled_task_stays_cancelled(url: str) -> None:
    async with modern(url) as client:
        created = await client.session.call_tool("bake", {"seconds": 60}, allow_claimed=True)
        assert isinstance(created, CreatedTask)
        cancel = TasksCancel(params=TaskParams(taskId=created.task_id))
        assert (await send(client, cancel))["resultType"] == "complete"
        assert (await task_get(client, created.task_id))["status"] == "cancelled"
        await send(client, cancel)  # again: the same acknowledgement
        with pytest.raises(MCPError) as unknown:
            await task_get(client, "no-such-task")
        assert unknown.value.code == -32602


# The 2025-11-25 side: `task` on tools/call, then tasks/get, tasks/result, tasks/list.


async def start_handshake_task(client: Client, name: str, arguments: dict[str, Any]) -> str:
    """tools/call with `task` (the client's tools/call models have no field for it, nor its
    answer: the message goes through the session's dispatcher as JSON)."""
    params = {"name": name, "arguments": arguments, "task": {"ttl": 60000}}
    answer = await client.session._dispatcher.send_raw_request("tools/call", params, {})
    task = answer["task"]
    assert task["status"] == "working" and task["ttl"] and task["pollInterval"]
    return str(task["taskId"])


async def handshake_result(client: Client, task_id: str) -> dict[str, Any]:
    request = GetTaskPayloadRequest(params=GetTaskPayloadRequestParams(task_id=task_id))
    found: dict[str, Any] = await send(client, request)
    return found


async def check_handshake_era(client: Client) -> None:
    assert client.protocol_version == "2025-11-25"
    declared = client.server_capabilities.tasks
    assert declared is not None and declared.list is not None and declared.cancel is not None
    task_id = await start_handshake_task(client, "bake", {"seconds": 0.5})
    status = await send(client, GetTaskRequest(params=GetTaskRequestParams(task_id=task_id)))
    assert status["taskId"] == task_id and status["status"] in ("working", "completed")
    listed = await send(client, ListTasksRequest())
    assert task_id in [t["taskId"] for t in listed["tasks"]]
    result = await handshake_result(client, task_id)  # waits for the result
    assert result["content"] == [{"type": "text", "text": "baked in 0.5 s"}]
    assert result["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": task_id}
    # A plain call of an optional tool is a plain call; a required one needs `task`.
    assert text(await client.call_tool("bake", {"seconds": 0})) == "baked in 0 s"
    with pytest.raises(MCPError) as refused:
        await client.call_tool("audit", {})
    assert refused.value.code == -32601
    long_id = await start_handshake_task(client, "bake", {"seconds": 60})
    cancel = CancelTaskRequest(params=CancelTaskRequestParams(task_id=long_id))
    assert (await send(client, cancel))["status"] == "cancelled"


async def test_handshake_era_tasks_over_stdio(chores: Path, project_venv: ProjectVenv) -> None:
    params = StdioServerParameters(
        command=str(project_venv.python), args=["-m", "chores"], env=_env(chores)
    )
    async with Client(params, mode="legacy", read_timeout_seconds=30) as client:
        await check_handshake_era(client)


async def test_handshake_era_tasks_over_http_outlive_their_session(url: str) -> None:
    async with Client(url, mode="legacy", read_timeout_seconds=30) as client:
        await check_handshake_era(client)
        task_id = await start_handshake_task(client, "bake", {"seconds": 1})
    # That session is over (deleted); another one fetches the result.
    async with Client(url, mode="legacy", read_timeout_seconds=30) as client:
        result = await handshake_result(client, task_id)
    assert result["content"][0]["text"] == "baked in 1 s"
