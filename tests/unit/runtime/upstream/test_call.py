"""Upstream calls against an in-process transport: answers, failures, retries, redaction."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import threading
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import httpx2
import pytest
from mcp.types import CallToolResult

from mcpgen.runtime.dispatch.context import Context
from mcpgen.runtime.upstream import call as call_module
from mcpgen.runtime.upstream.answer import Answers
from mcpgen.runtime.upstream.binding import ApiSource, Binding
from mcpgen.runtime.upstream.call import Clock, Upstream
from mcpgen.runtime.upstream.client import new_client, shared_client
from mcpgen.runtime.upstream.handler import Arguments, tool_handler

SECRET = "sk-live-0123456789"
SOURCE = {
    "key": "demo",
    "base_url": "https://api.test/v1",
    "base_url_env": "DEMO_BASE_URL",
    "auth": {"bearer_env": "DEMO_TOKEN"},
    "timeout": 5.0,
    "retries": 2,
}
ENV = {"DEMO_TOKEN": SECRET}


def get_item(**rest: Any) -> dict[str, Any]:
    return {
        "api": "demo",
        "method": rest.pop("method", "GET"),
        "path": "/items/{id}",
        "parameters": [{"name": "id", "in": "path", "argument": "id", "required": True}],
        **rest,
    }


class Recorder:
    """A transport answering from a list, recording each request; records the waits."""

    def __init__(self, *answers: httpx2.Response | Exception) -> None:
        self.answers = list(answers)
        self.requests: list[httpx2.Request] = []
        self.waits: list[float] = []

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)

    def client(self) -> httpx2.AsyncClient:
        return new_client(httpx2.MockTransport(self.handle))

    def upstream(self, binding: dict[str, Any], **source: Any) -> Upstream:
        clock = Clock(sleep=self.sleep, now=lambda: 1_800_000_000.0, dice=lambda: 0.5)
        return Upstream(
            "get_item", ApiSource.from_plain({**SOURCE, **source}), Binding.from_plain(binding),
            clock,
        )  # fmt: skip

    async def call(
        self, binding: dict[str, Any], arguments: dict[str, Any], env: dict[str, str] = ENV,
        caller: str | None = None, **source: Any,
    ) -> Any:  # fmt: skip
        async with self.client() as client:
            return await self.upstream(binding, **source).call(client, arguments, env, caller)


def json_answer(status: int, value: Any, **headers: str) -> httpx2.Response:
    return httpx2.Response(status, json=value, headers=headers)


def text_of(result: CallToolResult) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


@pytest.mark.anyio
async def test_a_json_answer_is_the_structured_result() -> None:
    upstream = Recorder(json_answer(200, {"id": 1, "name": "a"}))
    assert await upstream.call(get_item(), {"id": "a/b"}) == {"id": 1, "name": "a"}
    sent = upstream.requests[0]
    assert sent.url.raw_path == b"/v1/items/a%2Fb"
    assert sent.headers["authorization"] == f"Bearer {SECRET}"
    assert sent.headers["accept"] == "application/json, */*;q=0.8"


@pytest.mark.anyio
async def test_the_base_url_variable_overrides_the_sources() -> None:
    upstream = Recorder(json_answer(200, {}))
    await upstream.call(get_item(), {"id": 1}, {"DEMO_BASE_URL": "http://local.test:9/api/"})
    assert str(upstream.requests[0].url) == "http://local.test:9/api/items/1"


@pytest.mark.anyio
async def test_a_non_object_answer_is_wrapped_when_the_binding_says_so() -> None:
    upstream = Recorder(json_answer(200, [1, 2]))
    binding = get_item(response={"wrap": "result", "empty": False})
    assert await upstream.call(binding, {"id": 1}) == {"result": [1, 2]}


@pytest.mark.anyio
async def test_no_content_is_a_success_without_structured_content() -> None:
    result = await Recorder(httpx2.Response(204)).call(get_item(method="DELETE"), {"id": 1})
    assert isinstance(result, CallToolResult)
    assert not result.is_error and result.structured_content is None
    assert text_of(result) == "Succeeded with no content (HTTP 204)"


@pytest.mark.anyio
async def test_a_text_answer_is_text() -> None:
    answer = httpx2.Response(200, text="<html>hi</html>", headers={"content-type": "text/html"})
    result = await Recorder(answer).call(get_item(), {"id": 1})
    assert isinstance(result, CallToolResult) and text_of(result) == "<html>hi</html>"


@pytest.mark.anyio
async def test_a_failure_names_the_call_and_quotes_the_body_without_secrets() -> None:
    body = "denied for token " + SECRET + " " + "x" * 2000
    answer = httpx2.Response(403, text=body)
    result = await Recorder(answer).call(get_item(), {"id": 1})
    text = text_of(result)
    assert result.is_error
    assert text.startswith(
        "GET /items/{id} failed: HTTP 403 Forbidden: denied for token [redacted]"
    )
    assert SECRET not in text and len(text) < 700


@pytest.mark.anyio
async def test_a_passthrough_token_is_redacted_too() -> None:
    answer = httpx2.Response(401, text="bad token caller-token-42")
    result = await Recorder(answer).call(
        get_item(), {"id": 1}, {}, "Bearer caller-token-42", auth={"passthrough": True}
    )
    assert "caller-token-42" not in text_of(result) and "[redacted]" in text_of(result)


@pytest.mark.anyio
async def test_429_is_retried_after_its_retry_after() -> None:
    upstream = Recorder(
        json_answer(429, {}, **{"Retry-After": "3"}),
        json_answer(503, {}),
        json_answer(200, {"ok": 1}),
    )
    assert await upstream.call(get_item(method="POST"), {"id": 1}) == {"ok": 1}
    assert len(upstream.requests) == 3
    assert upstream.waits == [3.0, 0.75]  # Retry-After, then backoff(1) with the dice at 0.5


@pytest.mark.anyio
async def test_retries_end_with_the_last_answer() -> None:
    upstream = Recorder(json_answer(503, {"e": 1}))
    result = await upstream.call(get_item(), {"id": 1}, retries=1)
    assert len(upstream.requests) == 2 and "HTTP 503" in text_of(result)


@pytest.mark.anyio
async def test_a_retry_after_beyond_the_cap_is_not_waited_for() -> None:
    upstream = Recorder(json_answer(429, {}, **{"Retry-After": "3600"}))
    result = await upstream.call(get_item(), {"id": 1})
    assert len(upstream.requests) == 1 and upstream.waits == []
    assert text_of(result).startswith(
        "GET /items/{id} failed: HTTP 429 Too Many Requests (Retry-After: 3600):"
    )


@pytest.mark.parametrize(
    ("error", "method", "attempts", "words"),
    [
        (httpx2.ConnectError("refused"), "POST", 3, "could not connect to the API (ConnectError)"),
        (httpx2.ReadError("reset"), "POST", 1, "the connection failed (ReadError)"),
        (httpx2.ReadError("reset"), "GET", 3, "the connection failed (ReadError)"),
        (httpx2.ReadTimeout("slow"), "GET", 3, "no answer within 5 s (ReadTimeout)"),
    ],
)
@pytest.mark.anyio
async def test_connection_failures(
    error: Exception, method: str, attempts: int, words: str
) -> None:
    upstream = Recorder(error)
    result = await upstream.call(get_item(method=method), {"id": 1})
    assert result.is_error and text_of(result) == f"{method} /items/{{id}} failed: {words}"
    assert len(upstream.requests) == attempts


@pytest.mark.anyio
async def test_a_huge_answer_is_read_up_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(call_module, "MAX_RESPONSE_BYTES", 1000)
    result = await Recorder(httpx2.Response(200, content=b"[" * 5000)).call(get_item(), {"id": 1})
    assert result.is_error and "larger than 1000 bytes" in text_of(result)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (httpx2.Response(200, text="<html>"), "text/plain; charset=utf-8: <html>"),
        (httpx2.Response(204), "no content type and no content"),
        (httpx2.Response(200, content=b"{x", headers={"content-type": "application/json"}),
         "application/json: {x"),
    ],
)  # fmt: skip
@pytest.mark.anyio
async def test_a_tool_with_an_output_schema_needs_json(answer: httpx2.Response, said: str) -> None:
    recorder = Recorder(answer)
    upstream = dataclasses.replace(recorder.upstream(get_item()), structured=True)
    async with recorder.client() as client:
        result = await upstream.call(client, {"id": 1}, ENV)
    assert result.is_error
    assert text_of(result) == (
        f"GET /items/{{id}}: the API answered HTTP {answer.status_code} with {said}, "
        "where the tool's output schema describes a JSON result"
    )


@pytest.mark.anyio
async def test_garbage_labelled_json_is_returned_as_text() -> None:
    answer = httpx2.Response(200, content=b"{nope", headers={"content-type": "application/json"})
    result = await Recorder(answer).call(get_item(), {"id": 1})
    assert not result.is_error and text_of(result) == "{nope"


SCHEMA = {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}


@pytest.mark.anyio
async def test_warn_logs_a_mismatch_once_and_returns_the_answer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    binding = get_item(output_validation="warn", response_schema=SCHEMA)
    recorder = Recorder(json_answer(200, {"id": "not a number"}))
    upstream = recorder.upstream(binding)
    with caplog.at_level(logging.WARNING):
        async with recorder.client() as client:
            results = [await upstream.call(client, {"id": 1}, ENV) for _ in range(3)]
    assert all(r.structured_content == {"id": "not a number"} for r in results)
    assert all(json.loads(text_of(r)) == {"id": "not a number"} for r in results)
    warnings = [r for r in caplog.records if "response schema" in r.getMessage()]
    assert len(warnings) == 1 and "get_item" in warnings[0].getMessage()


@pytest.mark.anyio
async def test_warn_checks_the_wrapped_result(caplog: pytest.LogCaptureFixture) -> None:
    wrapped = {"type": "object", "properties": {"result": {"type": "array"}}}
    binding = get_item(
        output_validation="warn", response_schema=wrapped, response={"wrap": "result"}
    )
    result = await Recorder(json_answer(200, [1])).call(binding, {"id": 1})
    assert result.structured_content == {"result": [1]}
    assert not [r for r in caplog.records if "response schema" in r.getMessage()]


@pytest.mark.anyio
async def test_an_empty_path_value_is_refused_before_any_request() -> None:
    upstream = Recorder(json_answer(200, {}))
    result = await upstream.call(get_item(), {"id": ""})
    assert upstream.requests == []
    assert text_of(result) == "GET /items/{id}: the path parameter 'id' is empty"


@pytest.mark.anyio
async def test_off_returns_the_answer_unchecked(caplog: pytest.LogCaptureFixture) -> None:
    binding = get_item(output_validation="off", response_schema=SCHEMA)
    result = await Recorder(json_answer(200, ["x"])).call(binding, {"id": 1})
    assert result.structured_content is None and json.loads(text_of(result)) == ["x"]
    assert not caplog.records


def test_arguments_are_kept_as_sent() -> None:
    sent = {"id": 1, "model_config": "x", "_private": [None], "a b": {"c": None}}
    assert Arguments.model_validate(sent).plain() == sent


def FakeContext(authorization: str) -> Context:
    """A handler's context for a call whose HTTP request carries `authorization`."""
    return Context(None, http_request=SimpleNamespace(headers={"authorization": authorization}))


@pytest.mark.anyio
async def test_only_passthrough_handlers_take_the_context(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(json_answer(200, {"ok": True}))
    client = recorder.client()

    async def shared() -> httpx2.AsyncClient:
        return client

    monkeypatch.setattr("mcpgen.runtime.upstream.handler.shared_client", shared)
    plain: Callable[..., Any] = tool_handler("t", SOURCE, get_item())
    forwarding: Callable[..., Any] = tool_handler(
        "t", {**SOURCE, "auth": {"passthrough": True}}, get_item()
    )
    from mcpgen.runtime.dispatch.dispatcher import wants_context

    assert not wants_context(plain) and wants_context(forwarding)
    await forwarding(Arguments.model_validate({"id": 2}), FakeContext("Bearer from-caller"))
    assert recorder.requests[-1].headers["authorization"] == "Bearer from-caller"
    await client.aclose()


def test_the_shared_client_is_closed_when_its_event_loop_ends() -> None:
    async def use() -> httpx2.AsyncClient:
        first = await shared_client()
        assert await shared_client() is first and not first.is_closed
        return first

    client = asyncio.run(use())
    assert client.is_closed


@pytest.mark.anyio
async def test_the_credentials_win_over_a_header_argument_of_the_same_name() -> None:
    binding = get_item()
    binding["parameters"] = [
        *binding["parameters"],
        {"name": "Authorization", "in": "header", "argument": "Authorization"},
    ]
    upstream = Recorder(json_answer(200, {}))
    await upstream.call(binding, {"id": 1, "Authorization": "Bearer forged"})
    assert upstream.requests[0].headers.get_list("authorization") == [f"Bearer {SECRET}"]


@pytest.mark.anyio
async def test_a_large_answer_is_parsed_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(call_module, "OFF_LOOP_BYTES", 10)
    threads: list[int] = []
    original = Answers.result

    def recorded(self: Answers, *args: Any) -> Any:
        threads.append(threading.get_ident())
        return original(self, *args)

    monkeypatch.setattr(Answers, "result", recorded)
    value = {"id": 1, "name": "x" * 100}
    assert await Recorder(json_answer(200, value)).call(get_item(), {"id": 1}) == value
    assert await Recorder(json_answer(200, {})).call(get_item(), {"id": 1}) == {}
    assert threads[0] != threading.get_ident() and threads[1] == threading.get_ident()


@pytest.mark.anyio
async def test_each_request_may_take_the_sources_timeout() -> None:
    upstream = Recorder(json_answer(200, {}))
    await upstream.call(get_item(), {"id": 1}, timeout=42.0)
    assert upstream.requests[0].extensions["timeout"] == dict.fromkeys(
        ("connect", "read", "write", "pool"), 42.0
    )


@pytest.mark.anyio
async def test_an_accept_argument_is_sent_as_given() -> None:
    binding = get_item()
    binding["parameters"] = [
        *binding["parameters"],
        {"name": "Accept", "in": "header", "argument": "Accept"},
    ]
    upstream = Recorder(json_answer(200, {}))
    await upstream.call(binding, {"id": 1, "Accept": "text/csv"})
    assert upstream.requests[0].headers.get_list("accept") == ["text/csv"]
