"""The stdio byte pump in process, over real os.pipe (and regular file) descriptors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from mcp.types import INVALID_REQUEST, PARSE_ERROR, JSONRPCResponse

from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import build_server
from mcpgen.runtime.stdio.transport import Encoder, encode, serve_fds
from tests.support.runtime.stdio_tools import INITIALIZED, NAP, SERVER_TOOLS, call
from tests.support.runtime.tiny_tools import INFO, TOOLS

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}


def _lines(*messages: dict[str, Any] | str) -> bytes:
    text = "".join((m if isinstance(m, str) else json.dumps(m)) + "\n" for m in messages)
    return text.encode()


@contextmanager
def _collected(fd: int) -> Iterator[list[bytes]]:
    """Everything written to the pipe whose read end is `fd`, read in a thread."""
    chunks: list[bytes] = []

    def drain() -> None:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        yield chunks
    finally:
        reader.join(timeout=30)
        os.close(fd)


def serve(data: bytes) -> tuple[list[dict[str, Any]], float]:
    """Serve `data` (then end of input) through pipes; every answer, and the seconds taken."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()

    def feed() -> None:  # in a thread: more than a pipe holds must not block the test
        with os.fdopen(in_write, "wb") as pipe:
            pipe.write(data)

    feeder = threading.Thread(target=feed)
    server = build_server(INFO, Dispatcher(SERVER_TOOLS))
    with _collected(out_read) as chunks:
        start = time.perf_counter()
        feeder.start()
        anyio.run(serve_fds, server, in_read, out_write)
        took = time.perf_counter() - start
        feeder.join(timeout=30)
        os.close(in_read)
        os.close(out_write)
    lines = b"".join(chunks).splitlines()
    return [json.loads(line) for line in lines], took


def by_id(answers: list[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    ids = [a.get("id") for a in answers]
    assert len(ids) == len(set(ids)), f"an id answered twice: {ids}"
    return {a.get("id"): a for a in answers}


def test_pipelined_calls_are_all_answered_before_the_server_exits() -> None:
    calls = [call(i, "echo", {"text": f"Hi {i}"}) for i in range(50)]
    answers, _ = serve(_lines(INITIALIZE, INITIALIZED, *calls))
    answered = by_id(answers)
    assert "result" in answered["init"]
    for i in range(50):
        assert answered[i]["result"]["content"][0]["text"] == f"Hi {i}"


def test_pipelined_calls_run_concurrently_and_in_flight_ones_are_answered_at_eof() -> None:
    calls = [call(i, "nap", {}) for i in range(10)]
    answers, took = serve(_lines(INITIALIZE, INITIALIZED, *calls))
    answered = by_id(answers)
    assert all(answered[i]["result"]["content"][0]["text"] == "rested" for i in range(10))
    # Ten naps one after another would take 10 * NAP.
    assert took < 4 * NAP


def test_unreadable_lines_get_json_rpc_errors_and_blank_lines_are_ignored() -> None:
    data = _lines(INITIALIZE, "{not json", "", "   ", '{"jsonrpc": "2.0", "id": 3}', "[]")
    answers, _ = serve(data + _lines({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
    errors = [a for a in answers if a.get("id") is None]
    assert [e["error"]["code"] for e in errors] == [PARSE_ERROR, INVALID_REQUEST, INVALID_REQUEST]
    assert by_id([a for a in answers if a.get("id") is not None])[9]["result"] == {}


def test_a_last_line_without_newline_is_read() -> None:
    answers, _ = serve(_lines(INITIALIZE) + json.dumps(call(1, "echo", {"text": "End"})).encode())
    assert by_id(answers)[1]["result"]["content"][0]["text"] == "End"


def test_a_lone_surrogate_in_a_result_is_escaped_and_the_writer_carries_on() -> None:
    data = _lines(INITIALIZE, INITIALIZED, call(1, "surrogate", {}), call(2, "echo", {"text": "A"}))
    answers, _ = serve(data)
    answered = by_id(answers)
    # The dispatcher writes the surrogate as its escape, so the reply is valid UTF-8 text;
    # the transport's own escaping (below) is the backstop for anything else.
    assert answered[1]["result"]["content"][0]["text"] == "file-\\udc80.txt"
    assert answered[2]["result"]["content"][0]["text"] == "A"


def test_encode_escapes_surrogates_only_when_it_must() -> None:
    plain = JSONRPCResponse(jsonrpc="2.0", id=1, result={"text": "é"})
    assert encode(plain) == '{"jsonrpc":"2.0","id":1,"result":{"text":"é"}}\n'.encode()
    broken = JSONRPCResponse(jsonrpc="2.0", id=1, result={"text": "\udc80"})
    assert json.loads(encode(broken))["result"]["text"] == "\udc80"
    assert b"\\udc80" in encode(broken)


def test_regular_files_are_served_too() -> None:
    """`server < requests.jsonl > answers.jsonl`: no pipe, so no asyncio pipe transport."""
    with tempfile.TemporaryFile() as requests, tempfile.TemporaryFile() as out:
        requests.write(_lines(INITIALIZE, INITIALIZED, call(1, "echo", {"text": "File"})))
        requests.seek(0)
        server = build_server(INFO, Dispatcher(SERVER_TOOLS))
        anyio.run(serve_fds, server, requests.fileno(), out.fileno())
        out.seek(0)
        answers = [json.loads(line) for line in out.read().splitlines()]
    assert by_id(answers)[1]["result"]["content"][0]["text"] == "File"


def test_a_reader_gone_away_does_not_stop_the_server_from_finishing() -> None:
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    os.close(out_read)  # nobody will read the answers
    os.write(in_write, _lines(INITIALIZE, INITIALIZED, call(1, "echo", {"text": "Lost"})))
    os.close(in_write)
    server = build_server(INFO, Dispatcher(SERVER_TOOLS))

    async def bounded() -> None:
        with anyio.fail_after(20):
            await serve_fds(server, in_read, out_write)

    anyio.run(bounded)
    os.close(in_read)
    os.close(out_write)


CLAIM_SCRIPT = """
import os, subprocess, sys
from mcpgen.runtime.stdio.claim import claimed_stdio
with claimed_stdio() as (read_fd, write_fd):
    print("handler print")
    subprocess.run([sys.executable, "-c", "print('child print')"], check=True)
    assert sys.stdin.buffer.read() == b""  # fd 0 is the null device meanwhile
    os.write(write_fd, os.read(read_fd, 100))
print("after")
"""


def test_claimed_stdio_keeps_stdout_for_the_protocol() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CLAIM_SCRIPT],
        input=b"protocol\n",
        capture_output=True,
        check=True,
        timeout=30,
    )
    assert done.stdout == b"protocol\nafter\n"
    assert b"handler print" in done.stderr and b"child print" in done.stderr


@pytest.mark.parametrize("count", [1, 200])
def test_a_burst_larger_than_a_pipe_is_answered_without_loss(count: int) -> None:
    text = "L" + "o" * 2000
    calls = [call(i, "echo", {"text": text}) for i in range(count)]
    answers, _ = serve(_lines(INITIALIZE, INITIALIZED, *calls))
    answered = by_id(answers)
    for i in range(count):
        assert answered[i]["result"]["content"][0]["text"] == text


@pytest.mark.parametrize("extra", [{}, {"nextCursor": "2", "_meta": {"k": "é"}}])
def test_the_tool_list_is_encoded_once_and_the_answer_is_unchanged(extra: dict[str, Any]) -> None:
    tools = [spec.definition for spec in TOOLS]
    encoder = Encoder()
    for request_id in (1, "two"):
        answer = JSONRPCResponse(jsonrpc="2.0", id=request_id, result={"tools": tools, **extra})
        assert json.loads(encoder.encode(answer)) == json.loads(encode(answer))
    other = [{"name": "other", "inputSchema": {"type": "object"}}]
    answer = JSONRPCResponse(jsonrpc="2.0", id=3, result={"tools": other})
    assert json.loads(encoder.encode(answer))["result"]["tools"] == other


def test_tools_list_over_the_pipe_is_the_published_list_each_time() -> None:
    lists = [{"jsonrpc": "2.0", "id": i, "method": "tools/list"} for i in range(3)]
    answers, _ = serve(_lines(INITIALIZE, INITIALIZED, *lists))
    answered = by_id(answers)
    for i in range(3):
        assert answered[i]["result"]["tools"] == [spec.definition for spec in SERVER_TOOLS]
