"""Tools bound to an HTTP API, end to end: a project generated from a small OpenAPI document,
its server run as a real process (stdio and Streamable HTTP) with the official client, and a
real local HTTP server standing for the API, which records every request it receives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from tests.support.project_venv import run_mcpgen
from tests.support.runtime.http_wire import free_port, serving

SECRET = "demo-secret-token-0123456789"
CALLER_TOKEN = "caller-token-abcdef-98765"
ITEM_ID = {"name": "item_id", "in": "path", "required": True, "schema": {"type": "string"}}

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Demo API", "version": "1.0.0"},
    "servers": [{"url": "https://demo.invalid/v1"}],
    "paths": {
        "/items/{item_id}": {
            "get": {
                "operationId": "getItem",
                "summary": "One item",
                "parameters": [
                    ITEM_ID,
                    {
                        "name": "tags",
                        "in": "query",
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {"name": "limit", "in": "query", "schema": {"type": "integer"}},
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string"},
                            "note": {"type": "string", "nullable": True},
                        },
                        "required": ["id"],
                    }
                }}}},
            },
            "delete": {
                "operationId": "deleteItem",
                "parameters": [ITEM_ID],
                "responses": {"204": {"description": "gone"}},
            },
        },
        "/items": {
            "get": {
                "operationId": "listItems",
                "responses": {"200": {"description": "all", "content": {"application/json": {
                    "schema": {"type": "array", "items": {"type": "string"}}
                }}}},
            },
            "post": {
                "operationId": "createItem",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "size": {"type": "integer"}},
                    "required": ["name"],
                }}}},
                "responses": {"201": {"description": "made", "content": {"application/json": {
                    "schema": {"type": "object", "properties": {"id": {"type": "string"}}}
                }}}},
            },
        },
        "/forms": {
            "post": {
                "operationId": "sendForm",
                "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
                    "type": "object",
                    "properties": {"who": {"type": "string"}, "n": {"type": "integer"}},
                }}}},
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"type": "object"}
                }}}},
            }
        },
        "/flaky": {"get": {"operationId": "getFlaky", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}
        }}}},
        "/drip": {"get": {"operationId": "getDrip", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}
        }}}},
        "/huge": {"get": {"operationId": "getHuge", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}
        }}}},
        "/broken": {"get": {"operationId": "getBroken", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}
        }}}},
    },
}  # fmt: skip

MANIFEST = """\
name: demo
version: 0.1.0
description: Tools bound to a local HTTP API
tools: []
openapi:
  - spec: openapi/demo.json
    name: demo
    auth: {bearer_env: DEMO_TOKEN}
    timeout: 5
    retries: 2
  - spec: openapi/demo.json
    name: relay
    include: [getItem, getBroken]
    auth: passthrough
    overrides:
      getItem: {name: relay_get_item}
      getBroken: {name: relay_get_broken, output_validation: warn}
  - spec: openapi/demo.json
    name: slow
    include: [getDrip, getHuge]
    timeout: 1
    retries: 0
    overrides:
      getDrip: {name: slow_drip}
      getHuge: {name: slow_huge}
"""


@dataclass
class Received:
    """One request the API received, as it came on the wire."""

    method: str
    target: str  # the raw request target: path and query, as sent
    headers: dict[str, str]  # names in lower case
    body: bytes
    at: float


class FakeApi(BaseHTTPRequestHandler):
    """The API: answers by path under `/v1`, and records every request."""

    received: list[Received]
    flaky_calls = 0

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.received.append(Received(self.command, self.path, headers, body, time.monotonic()))
        path = self.path.split("?", 1)[0]
        if self.command == "DELETE":
            self._send(204, b"")
        elif path.startswith("/v1/items/"):
            from urllib.parse import unquote

            self._json(200, {"id": unquote(path.removeprefix("/v1/items/")), "note": None})
        elif path == "/v1/items" and self.command == "GET":
            self._json(200, ["a", "b"])
        elif path == "/v1/items":
            self._json(201, {"id": "new", **json.loads(body)})
        elif path == "/v1/forms":
            self._json(200, {"form": body.decode()})
        elif path == "/v1/flaky":
            type(self).flaky_calls += 1
            if type(self).flaky_calls % 2:
                self._send(429, b"slow down", {"Retry-After": "1"})
            else:
                self._json(200, {"ok": True})
        elif path == "/v1/drip":  # a byte every 0.2 s, 30 s in all
            self._stream(b"{" + b" " * 148 + b"}", chunk=1, pause=0.2)
        elif path == "/v1/huge":  # 20 MB, more than a call reads
            self._stream(b"[" + b"0," * (10 * 1024 * 1024) + b"0]", chunk=1 << 20, pause=0)
        elif path == "/v1/broken":
            # Echoes what it got, credentials included: the server must not pass them on.
            echoed = f"internal error; you sent {headers.get('authorization')} " + "x" * 5000
            self._send(500, echoed.encode())
        else:
            self._send(404, b"no such path")

    do_GET = do_POST = do_DELETE = _answer  # the names http.server calls

    def _stream(self, body: bytes, chunk: int, pause: float) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            for start in range(0, len(body), chunk):
                self.wfile.write(body[start : start + chunk])
                self.wfile.flush()
                time.sleep(pause)
        except OSError:  # the server under test hung up, as it should
            pass

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode(), {"Content-Type": "application/json"})

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if status != 204:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def api() -> Iterator[tuple[str, list[Received]]]:
    """The API's base URL, and the requests it receives."""
    received: list[Received] = []
    handler = type("RecordingApi", (FakeApi,), {"received": received, "flaky_calls": 0})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", received
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose tools are the document's operations, made with the real CLI."""
    root = tmp_path_factory.mktemp("bound") / "demo"
    run_mcpgen("new", "demo", "--dir", str(root), "--no-input", "--no-git")
    (root / "openapi").mkdir()
    (root / "openapi" / "demo.json").write_text(json.dumps(SPEC), encoding="utf-8")
    (root / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    run_mcpgen("generate", cwd=root)
    return root


def environment(project: Path, base_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(project / "src"),
        "DEMO_BASE_URL": base_url,
        "RELAY_BASE_URL": base_url,
        "SLOW_BASE_URL": base_url,
        "DEMO_TOKEN": SECRET,
    }


def text_of(result: CallToolResult) -> str:
    return "".join(b.text for b in result.content if isinstance(b, TextContent))


async def stdio_calls(
    project: Path, base_url: str, calls: list[tuple[str, dict[str, Any]]], log: Path
) -> list[CallToolResult]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "demo"], env=environment(project, base_url),
        cwd=str(project),
    )  # fmt: skip
    results = []
    with log.open("w") as errlog:
        from mcp import stdio_client

        async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=30) as client:
            for name, arguments in calls:
                results.append(await client.call_tool(name, arguments))
    return results


def run_stdio(
    project: Path, base_url: str, tmp_path: Path, *calls: tuple[str, dict[str, Any]]
) -> list[CallToolResult]:
    return anyio.run(stdio_calls, project, base_url, list(calls), tmp_path / "server.log")


def test_generated_project_has_no_handlers_and_its_own_tests_pass(project: Path) -> None:
    assert sorted(p.name for p in (project / "src/demo/handlers").iterdir()) == ["__init__.py"]
    assert (project / "src/demo/_generated/apis.py").is_file()
    assert "Calls: `GET /items/{item_id}` on the `demo` API" in (project / "TOOLS.md").read_text()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=project, env={**os.environ, "PYTHONPATH": str(project / "src")},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_requests_carry_escaped_paths_query_headers_bodies_and_auth(
    project: Path, api: tuple[str, list[Received]], tmp_path: Path
) -> None:
    base_url, received = api
    received.clear()
    results = run_stdio(
        project, base_url, tmp_path,
        ("get_item", {"item_id": "../admin/x y", "tags": ["a", "b c"], "limit": 5,
                      "X-Trace": "t-1"}),
        ("create_item", {"name": "pen", "size": 3}),
        ("send_form", {"who": "a b&c", "n": 2}),
        ("delete_item", {"item_id": "7"}),
        ("list_items", {}),
    )  # fmt: skip
    get, create, form, delete, listed = results
    assert [r.is_error for r in results] == [False] * 5, [text_of(r) for r in results]
    assert get.structured_content == {"id": "../admin/x y", "note": None}
    assert create.structured_content == {"id": "new", "name": "pen", "size": 3}
    assert form.structured_content == {"form": "who=a%20b%26c&n=2"}
    assert delete.structured_content is None
    assert text_of(delete) == "Succeeded with no content (HTTP 204)"
    assert listed.structured_content == {"result": ["a", "b"]}

    first, second, third, fourth, fifth = received
    assert (first.method, first.target) == (
        "GET",
        "/v1/items/..%2Fadmin%2Fx%20y?tags=a&tags=b%20c&limit=5",
    )
    assert first.headers["x-trace"] == "t-1"
    assert all(r.headers["authorization"] == f"Bearer {SECRET}" for r in received)
    assert (second.method, second.target) == ("POST", "/v1/items")
    assert json.loads(second.body) == {"name": "pen", "size": 3}
    assert second.headers["content-type"] == "application/json"
    assert third.body == b"who=a%20b%26c&n=2"
    assert third.headers["content-type"] == "application/x-www-form-urlencoded"
    assert (fourth.method, fourth.target) == ("DELETE", "/v1/items/7")
    assert (fifth.method, fifth.target) == ("GET", "/v1/items")


def test_429_is_retried_after_its_retry_after(
    project: Path, api: tuple[str, list[Received]], tmp_path: Path
) -> None:
    base_url, received = api
    received.clear()
    (result,) = run_stdio(project, base_url, tmp_path, ("get_flaky", {}))
    assert not result.is_error and result.structured_content == {"ok": True}
    assert [r.target for r in received] == ["/v1/flaky", "/v1/flaky"]
    assert received[1].at - received[0].at >= 0.95


def test_a_failed_call_quotes_the_answer_without_secrets(
    project: Path, api: tuple[str, list[Received]], tmp_path: Path
) -> None:
    base_url, received = api
    received.clear()
    broken, relayed = run_stdio(
        project, base_url, tmp_path, ("get_broken", {}), ("relay_get_broken", {})
    )
    assert received[0].headers["authorization"] == f"Bearer {SECRET}"
    assert "authorization" not in received[1].headers  # stdio: no caller's token to forward
    assert broken.is_error and relayed.is_error
    text = text_of(broken)
    assert text.startswith(
        "GET /broken failed: HTTP 500 Internal Server Error: "
        "internal error; you sent Bearer [redacted] xxx"
    )
    assert SECRET not in text and len(text) < 800
    assert SECRET not in (tmp_path / "server.log").read_text()


@pytest.mark.parametrize(
    "mode", [[], ["--stateless", "--json-response"]], ids=["sessions", "stateless"]
)
def test_passthrough_forwards_the_callers_token_over_http_and_redacts_it(
    project: Path, api: tuple[str, list[Received]], mode: list[str]
) -> None:
    base_url, received = api
    received.clear()
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "demo", "--transport", "http", "--port", str(port), *mode],
        cwd=project, env=environment(project, base_url),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip

    async def calls() -> list[CallToolResult]:
        headers = {"Authorization": f"Bearer {CALLER_TOKEN}"}
        async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
            url = f"http://127.0.0.1:{port}/mcp"
            async with Client(streamable_http_client(url, http_client=http)) as client:
                return [
                    await client.call_tool("relay_get_item", {"item_id": "x"}),
                    await client.call_tool("relay_get_broken", {}),
                ]

    with serving(process, port) as server:
        got, broken = anyio.run(calls)
        server.stop()
    logged = process.stderr.read().decode() if process.stderr else ""
    assert not got.is_error and got.structured_content == {"id": "x", "note": None}
    assert [r.headers.get("authorization") for r in received] == [f"Bearer {CALLER_TOKEN}"] * 2
    assert broken.is_error and CALLER_TOKEN not in text_of(broken)
    assert "you sent Bearer [redacted]" in text_of(broken)
    assert CALLER_TOKEN not in logged and SECRET not in logged


def test_an_api_that_is_down_is_a_tool_error_and_the_server_serves_on(
    project: Path, tmp_path: Path
) -> None:
    closed = f"http://127.0.0.1:{free_port()}/v1"
    down, again = run_stdio(
        project, closed, tmp_path, ("get_item", {"item_id": "1"}), ("list_items", {})
    )
    assert down.is_error and again.is_error
    assert (
        text_of(down) == "GET /items/{item_id} failed: could not connect to the API (ConnectError)"
    )
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log and SECRET not in log


def test_a_slow_drip_or_a_huge_answer_ends_the_call_and_not_the_server(
    project: Path, api: tuple[str, list[Received]], tmp_path: Path
) -> None:
    base_url, _ = api
    started = time.monotonic()
    drip, huge, after = run_stdio(
        project, base_url, tmp_path, ("slow_drip", {}), ("slow_huge", {}), ("list_items", {})
    )
    assert time.monotonic() - started < 20
    assert drip.is_error and text_of(drip) == "GET /drip failed: no answer within 1 s"
    assert huge.is_error and "the answer is larger than 16777216 bytes" in text_of(huge)
    assert not after.is_error and after.structured_content == {"result": ["a", "b"]}


def test_a_handler_given_then_taken_back_goes_while_unedited(project: Path, tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(project, root)
    bound = (root / "mcpgen.yaml").read_text(encoding="utf-8")
    custom = bound.replace(
        "    retries: 2\n", "    retries: 2\n    overrides:\n      getItem: {handler: custom}\n", 1
    )
    (root / "mcpgen.yaml").write_text(custom, encoding="utf-8")
    run_mcpgen("generate", cwd=root)
    handler = root / "src/demo/handlers/get_item.py"
    assert handler.is_file() and (root / "tests/test_get_item.py").is_file()
    assert "demo.handlers.get_item" in (root / "src/demo/_generated/tools.py").read_text()
    (root / "mcpgen.yaml").write_text(bound, encoding="utf-8")
    run_mcpgen("generate", cwd=root)
    assert not handler.exists() and not (root / "tests/test_get_item.py").exists()
    assert "demo.handlers.get_item" not in (root / "src/demo/_generated/tools.py").read_text()
