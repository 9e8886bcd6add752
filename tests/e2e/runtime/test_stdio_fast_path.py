"""The stdio fast path's own behaviour over real pipes: cancellation, concurrency, the drain,
coalesced writes, and standing aside where the SDK-compatibility contract says so.

That its answers are byte for byte the SDK's is judged against the SDK's own `stdio_server`
in tests/differential (`test_fast_paths_vs_sdk`).
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

import anyio
import pytest
from mcp.types import JSONRPCRequest

from mcpgen.runtime.core import sdk_contract
from mcpgen.runtime.core.sdk_contract import Releases
from mcpgen.runtime.dispatch.dispatcher import Dispatcher, ToolSpec
from mcpgen.runtime.entry.serve import build_server
from mcpgen.runtime.stdio import transport as stdio_transport
from mcpgen.runtime.stdio.fast_path import FastPath
from mcpgen.runtime.stdio.transport import serve_fds
from tests.support.runtime.stdio_tools import INITIALIZED, NAP, SERVER_TOOLS, NapInput, call
from tests.support.runtime.tiny_tools import INFO


def _with_context(args: NapInput, context: Any) -> str:
    return "context"


def _raises(args: NapInput) -> str:
    raise RuntimeError("boom")


def _structured(args: NapInput) -> dict[str, Any]:
    return {"n": len(args.model_extra or {})}


def _bad_structured(args: NapInput) -> dict[str, Any]:
    return {"n": "not a number"}


STRUCTURED = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
TOOLS = [
    *SERVER_TOOLS,
    ToolSpec(
        {"name": "ctx", "inputSchema": {"type": "object"}},
        NapInput,
        _with_context,
        "h.py",
    ),
    ToolSpec({"name": "raises", "inputSchema": {"type": "object"}}, NapInput, _raises, "h.py"),
    ToolSpec(
        {"name": "structured", "inputSchema": {"type": "object"}, "outputSchema": STRUCTURED},
        NapInput,
        _structured,
        "h.py",
    ),
    ToolSpec(
        {"name": "bad", "inputSchema": {"type": "object"}, "outputSchema": STRUCTURED},
        NapInput,
        _bad_structured,
        "h.py",
    ),
]


def _initialize(version: str) -> dict[str, Any]:
    params = {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    }
    return {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params}


def _request(request_id: Any, method: str, params: Any = None) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    return message if params is None else {**message, "params": params}


EARLY = [call("early", "echo", {"text": "Too soon"}), _request("early-list", "tools/list")]


class RecordingFastPath(FastPath):
    """A FastPath that records which requests it took, to prove it took part."""

    took: list[Any]

    def takes(self, request: JSONRPCRequest) -> bool:
        taken = super().takes(request)
        if taken:
            self.took.append(request.id)
        return taken


def _session(
    messages: list[dict[str, Any]], version: str, fast: bool
) -> tuple[dict[Any, bytes], list[Any]]:
    """Answer lines by id for: EARLY, initialize, (its answer awaited), then `messages`."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    lines: list[bytes] = []
    initialized = threading.Event()

    def read() -> None:
        buffer = b""
        while chunk := os.read(out_read, 65536):
            buffer += chunk
            *complete, buffer = buffer.split(b"\n")
            lines.extend(complete)
            if any(b'"id":"init"' in line for line in complete):
                initialized.set()

    def write() -> None:
        with os.fdopen(in_write, "wb") as pipe:
            pipe.write(_lines(*EARLY, _initialize(version)))
            pipe.flush()
            initialized.wait(timeout=30)
            pipe.write(_lines(INITIALIZED, *messages))

    dispatcher = Dispatcher(TOOLS)
    server = build_server(INFO, dispatcher)
    path = RecordingFastPath(dispatcher, server) if fast else None
    if path is not None:
        path.took = []
    reader, writer = threading.Thread(target=read), threading.Thread(target=write)
    reader.start()
    writer.start()
    anyio.run(serve_fds, server, in_read, out_write, path)
    os.close(out_write)
    writer.join(timeout=30)
    reader.join(timeout=30)
    os.close(in_read)
    os.close(out_read)
    answers: dict[Any, bytes] = {}
    for line in lines:
        request_id = json.loads(line).get("id")
        assert request_id not in answers, f"{request_id!r} answered twice"
        answers[request_id] = line
    return answers, [] if path is None else path.took


def _lines(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def _nap_session(messages: list[dict[str, Any]]) -> tuple[dict[Any, bytes], list[Any], float]:
    start = time.perf_counter()
    answers, taken = _session(messages, "2025-11-25", fast=True)
    return answers, taken, time.perf_counter() - start


def test_a_cancelled_fast_call_is_not_answered_and_others_run_concurrently() -> None:
    cancel = {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "changed my mind"},
    }
    naps = [call(i, "nap", {}) for i in range(1, 9)]
    answers, taken, took = _nap_session([*naps, cancel])
    assert sorted(taken) == list(range(1, 9))
    assert 1 not in answers
    assert all(b"rested" in answers[i] for i in range(2, 9))
    assert took < 4 * NAP + 2  # eight naps one after another would take 8 * NAP


def test_calls_still_running_when_the_drain_ends_are_answered_as_the_sdk_answers_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stdio_transport, "DRAIN_SECONDS", NAP / 8)
    naps = [call(i, "nap", {}) for i in range(1, 4)]
    sdk, _ = _session(naps, "2025-11-25", fast=False)
    fast, taken = _session(naps, "2025-11-25", fast=True)
    assert sorted(taken) == [1, 2, 3]
    assert b'"Connection closed"' in sdk[1]
    assert all(fast[i] == sdk[i] for i in (1, 2, 3))


def test_under_an_sdk_release_it_was_not_proven_with_the_sdk_answers_everything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sdk_contract, "VERIFIED_SDK", Releases(lowest=(0,), below=(0, 1)))
    answers, taken = _session([call(1, "echo", {"text": "Hi"})], "2025-11-25", fast=True)
    assert taken == []
    assert b'"text":"Hi"' in answers[1]


def test_a_lone_answer_goes_out_at_once_and_a_burst_is_coalesced_without_loss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written_at_once: list[Any] = []
    write_now = stdio_transport._Writer.write_now

    def recorded(writer: Any, message: Any) -> bool:
        written = write_now(writer, message)
        if written:
            written_at_once.append(message.id)
        return written

    monkeypatch.setattr(stdio_transport._Writer, "write_now", recorded)
    answers, taken = _session([call("alone", "echo", {"text": "Hi"})], "2025-11-25", fast=True)
    assert taken == ["alone"]
    assert json.loads(answers["alone"])["result"]["content"][0]["text"] == "Hi"
    assert written_at_once == ["alone"]  # no other call running: no turn of the writer task

    written_at_once.clear()
    text = "L" + "o" * 4000  # 100 answers of 4 kB: more than a pipe holds
    calls = [call(i, "echo", {"text": text}) for i in range(100)]
    answers, taken = _session(calls, "2025-11-25", fast=True)
    assert sorted(taken) == list(range(100))
    assert all(json.loads(answers[i])["result"]["content"][0]["text"] == text for i in range(100))
    # Calls running together are answered through the writer's queue, in shared writes.
    assert len(written_at_once) < 50
