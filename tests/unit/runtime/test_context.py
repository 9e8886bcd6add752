"""The handler context through a real SDK client, in both protocol eras."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import (
    CreateMessageResult,
    ElicitResult,
    ListRootsResult,
    LoggingMessageNotificationParams,
    Root,
    TextContent,
)

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.context import Context
from mcpgen.runtime.dispatch.dispatcher import CallPolicy, Dispatcher, ToolSpec
from mcpgen.runtime.dispatch.questions import Elicit, ListRoots, Sample
from mcpgen.runtime.entry.serve import build_server
from tests.support.runtime.context_tools import SEEN, TOOLS, Args

INFO = ServerInfo(name="ctx", version="0.1.0", script="ctx-server", description="Context.")
ERAS = ["legacy", "2026-07-28"]


def server() -> Any:
    return build_server(INFO, Dispatcher(TOOLS, CallPolicy(env_names=("CTX_TEST_VAR",))))


def text(result: Any) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, TextContent))


@pytest.mark.anyio
async def test_progress_and_logs_arrive_in_order_before_the_result() -> None:
    events: list[str] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        events.append(f"log {params.level} {params.data}")

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        events.append(f"progress {progress:g}/{total:g} {message}")

    async with Client(server(), mode="legacy", logging_callback=on_log) as client:
        result = await client.call_tool("progress", {}, progress_callback=on_progress)
        events.append(f"result {text(result)}")
    assert [e for e in events if e.startswith("progress")] == [
        f"progress {n}/3 step {n}" for n in (1, 2, 3)
    ]
    assert events[-1] == "result done"
    logs = [e for e in events if e.startswith("log")]
    assert logs == [f"log {level} {level} {n}" for n in (1, 2, 3) for level in ("debug", "warning")]


@pytest.mark.anyio
async def test_logging_set_level_is_respected() -> None:
    events: list[str] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        events.append(str(params.level))

    async with Client(server(), mode="legacy", logging_callback=on_log) as client:
        await client.set_logging_level("warning")
        await client.call_tool("progress", {})
    assert events == ["warning"] * 3


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_elicitation_round_trips_in_both_eras(era: str) -> None:
    asked: list[str] = []

    async def answer(context: Any, params: Any) -> ElicitResult:
        asked.append(params.message)
        if params.message == "Your name?":
            return ElicitResult(action="accept", content={"name": "Ada"})
        return ElicitResult(action="decline")

    async with Client(server(), mode=era, elicitation_callback=answer) as client:  # type: ignore[arg-type]
        result = await client.call_tool("ask", {})
    assert not result.is_error, text(result)
    assert json.loads(text(result)) == {"name": "Ada", "second": "decline"}
    assert asked == ["Your name?", "Sure?"]


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_sampling_round_trips_in_both_eras(era: str) -> None:
    async def complete(context: Any, params: Any) -> CreateMessageResult:
        said = params.messages[0].content.text
        reply = TextContent(type="text", text=f"model says hi to {said!r}")
        return CreateMessageResult(role="assistant", content=reply, model="m")

    async with Client(server(), mode=era, sampling_callback=complete) as client:  # type: ignore[arg-type]
        result = await client.call_tool("sample", {})
    assert text(result) == "model says hi to 'Say hi'"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize(("action", "runs"), [("accept", True), ("decline", False)])
async def test_confirm_asks_before_the_handler_runs(era: str, action: str, runs: bool) -> None:
    SEEN.pop("destroyed", None)

    async def answer(context: Any, params: Any) -> ElicitResult:
        return ElicitResult(action=action, content={} if action == "accept" else None)  # type: ignore[arg-type]

    async with Client(server(), mode=era, elicitation_callback=answer) as client:  # type: ignore[arg-type]
        result = await client.call_tool("destroy", {})
    assert result.is_error is not runs and SEEN.get("destroyed", False) is runs


@pytest.mark.anyio
async def test_confirm_without_a_client_that_can_ask_is_an_error() -> None:
    SEEN.pop("destroyed", None)
    async with Client(server(), mode="legacy") as client:
        result = await client.call_tool("destroy", {})
    assert result.is_error and "confirmation" in text(result) and "destroyed" not in SEEN


@pytest.mark.anyio
async def test_a_cancelled_call_is_cancelled_in_the_handler() -> None:
    SEEN.clear()
    async with Client(server(), mode="legacy") as client:
        with anyio.move_on_after(0.5):
            await client.call_tool("wait_for_cancel", {})
        with anyio.fail_after(5):
            while not SEEN.get("cancelled"):
                await anyio.sleep(0.05)
    assert SEEN == {"started": True, "cancelled": True}


@pytest.mark.anyio
async def test_request_id_client_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CTX_TEST_VAR", "value")
    async with Client(server(), mode="legacy") as client:
        result = json.loads(text(await client.call_tool("who", {})))
    assert result["request_id"] is not None and result["client"]
    assert result["env"] == {"CTX_TEST_VAR": "value"} and result["subject"] is None


AGE = {"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]}
RUNS: list[str] = []


async def ask_all(args: Args, ctx: Context) -> dict[str, Any]:
    RUNS.append("ask_all")
    answers = await ctx.ask(
        {"age": Elicit("Your age?", AGE), "poem": Sample("A poem"), "roots": ListRoots()}
    )
    age, poem, roots = answers["age"], answers["poem"], answers["roots"]
    assert isinstance(age, ElicitResult) and isinstance(poem, CreateMessageResult)
    assert isinstance(roots, ListRootsResult)
    return {
        "age": (age.content or {}).get("age"),
        "poem": getattr(poem.content, "text", None),
        "roots": [str(root.uri) for root in roots.roots],
    }


async def ask_age(args: Args, ctx: Context) -> Any:
    RUNS.append("ask_age")
    return (await ctx.elicit("Your age?", AGE)).content


async def capabilities(args: Args, ctx: Context) -> dict[str, bool]:
    return {name: ctx.client_supports(name) for name in ("elicitation", "sampling", "roots")}


def questions_server() -> Any:
    specs = [
        ToolSpec({"name": name, "inputSchema": {"type": "object"}}, Args, handler, "h.py")
        for name, handler in (("ask_all", ask_all), ("ask_age", ask_age), ("can", capabilities))
    ]
    return build_server(INFO, Dispatcher(specs))


async def poet(context: Any, params: Any) -> CreateMessageResult:
    reply = TextContent(type="text", text="roses")
    return CreateMessageResult(role="assistant", content=reply, model="m")


async def roots(context: Any) -> ListRootsResult:
    return ListRootsResult(roots=[Root(uri="file:///work", name="work")])


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_several_questions_at_once_in_both_eras(era: str) -> None:
    RUNS.clear()

    async def answer(context: Any, params: Any) -> ElicitResult:
        return ElicitResult(action="accept", content={"age": 36})

    async with Client(
        questions_server(),
        mode=era,  # type: ignore[arg-type]
        elicitation_callback=answer,
        sampling_callback=poet,
        list_roots_callback=roots,
    ) as client:
        result = await client.call_tool("ask_all", {})
    assert json.loads(text(result)) == {"age": 36, "poem": "roses", "roots": ["file:///work"]}
    # From 2026-07-28 the three questions travel in one input-required result: two runs.
    assert RUNS == ["ask_all"] * (2 if era == "2026-07-28" else 1)


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_an_answer_that_breaks_the_form_is_asked_again(era: str) -> None:
    given = iter([{"age": "old"}, {}, {"age": 36}])

    async def answer(context: Any, params: Any) -> ElicitResult:
        return ElicitResult(action="accept", content=next(given))

    async with Client(questions_server(), mode=era, elicitation_callback=answer) as client:  # type: ignore[arg-type]
        result = await client.call_tool("ask_age", {})
    assert json.loads(text(result)) == {"age": 36}
    assert next(given, None) is None  # all three answers were asked for


@pytest.mark.anyio
async def test_capabilities_are_those_the_client_declared() -> None:
    async with Client(questions_server(), mode="2026-07-28", sampling_callback=poet) as client:
        found = json.loads(text(await client.call_tool("can", {})))
    assert found == {"elicitation": False, "sampling": True, "roots": False}


@pytest.mark.anyio
async def test_a_question_the_client_cannot_answer_is_a_tool_error() -> None:
    async with Client(questions_server(), mode="2026-07-28") as client:
        result = await client.call_tool("ask_age", {})
    assert result.is_error and "does not support elicitation" in text(result)
