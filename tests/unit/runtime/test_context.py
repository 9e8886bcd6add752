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
    LoggingMessageNotificationParams,
    TextContent,
)

from mcpgen.runtime.runtime import CallPolicy, Dispatcher
from mcpgen.runtime.serve import ServerInfo, build_server
from tests.unit.runtime.context_tools import SEEN, TOOLS

INFO = ServerInfo(name="ctx", version="0.1.0", script="ctx-server", description="Context.")
ERAS = ["legacy", "2026-07-28"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


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
