"""OpenTelemetry spans on every path, received by a real OTLP/HTTP endpoint in the test, and
`--metrics` read with the Prometheus text parser: the stdio session (the SDK's handshake and
the fast path's calls, list and ping), and stateless HTTP (the fast path and the SDK's path,
a client's traceparent), against real server processes."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import RequestParamsMeta

from tests.e2e.runtime.test_caller import SERVER, caller_server

pytest.importorskip("opentelemetry.sdk")
trace_service = pytest.importorskip("opentelemetry.proto.collector.trace.v1.trace_service_pb2")
prometheus_parser = pytest.importorskip("prometheus_client.parser")

TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
PARENT_ID = "b7ad6b7169203331"


class Receiver:
    """The spans an OTLP/HTTP exporter sent, decoded from protobuf."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def add(self, body: bytes) -> None:
        request = trace_service.ExportTraceServiceRequest()
        request.ParseFromString(body)
        for resource in request.resource_spans:
            service = {a.key: a.value.string_value for a in resource.resource.attributes}
            for scope in resource.scope_spans:
                for span in scope.spans:
                    attributes = {a.key: _value(a.value) for a in span.attributes}
                    with self.lock:
                        self.spans.append(
                            {
                                "name": span.name,
                                "kind": span.kind,
                                "attributes": attributes,
                                "trace_id": span.trace_id.hex(),
                                "parent_id": span.parent_span_id.hex(),
                                "service": service.get("service.name"),
                            }
                        )

    def named(self, name: str, timeout: float = 10) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                found = [s for s in self.spans if s["name"] == name]
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"no span {name!r} among {[s['name'] for s in self.spans]}")


def _value(value: Any) -> Any:
    return getattr(value, value.WhichOneof("value")) if value.WhichOneof("value") else None


@contextmanager
def otlp_receiver() -> Iterator[tuple[Receiver, dict[str, str]]]:
    receiver = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["content-length"]))
            if self.path == "/v1/traces":
                receiver.add(body)
            reply = trace_service.ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("content-type", "application/x-protobuf")
            self.send_header("content-length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{server.server_address[1]}",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        "OTEL_SERVICE_NAME": "caller-under-test",
        "OTEL_BSP_SCHEDULE_DELAY": "50",
    }
    try:
        yield receiver, env
    finally:
        server.shutdown()
        server.server_close()


EXPECTED_KEYS = {"mcp.method.name", "mcp.protocol.version", "jsonrpc.request.id"}


@pytest.mark.anyio
async def test_stdio_requests_on_every_path_have_the_sdks_spans() -> None:
    with otlp_receiver() as (receiver, env):
        params = StdioServerParameters(
            command=sys.executable, args=[str(SERVER)], env={**os.environ, **env}
        )
        async with Client(params, mode="legacy") as client:
            await client.list_tools()  # fast path
            await client.call_tool("limited", {})  # fast path
            await client.call_tool("limited_ctx", {})  # the SDK's path
            with pytest.raises(MCPError):
                await client.call_tool("nope", {})  # unknown: the SDK's path
            for _ in range(2):
                await client.call_tool("limited", {})  # the second is rate limited
            with pytest.warns(Warning):
                await client.send_ping()
            traceparent = f"00-{TRACE_ID}-{PARENT_ID}-01"
            meta = RequestParamsMeta(traceparent=traceparent)  # type: ignore[typeddict-unknown-key]
            await client.call_tool("hooked", {"value": 1}, meta=meta)
        hooked = receiver.named("tools/call hooked")[0]
        assert (hooked["trace_id"], hooked["parent_id"]) == (TRACE_ID, PARENT_ID)
        fast = receiver.named("tools/call limited")
        sdk = receiver.named("tools/call limited_ctx")[0]
        for name in ("initialize", "tools/list", "ping"):
            span = receiver.named(name)[0]
            assert (
                EXPECTED_KEYS <= set(span["attributes"])
                and span["attributes"]["mcp.method.name"] == name
            )
        unknown = receiver.named("tools/call nope")[0]
    assert len(fast) == 3
    assert set(fast[0]["attributes"]) == set(sdk["attributes"]) - {"error.type"}
    assert fast[0]["attributes"]["gen_ai.tool.name"] == "limited"
    assert fast[0]["attributes"]["gen_ai.operation.name"] == "execute_tool"
    assert fast[0]["kind"] == sdk["kind"] == 2  # SERVER
    assert fast[0]["service"] == "caller-under-test"
    assert [s["attributes"].get("error.type") for s in fast] == [None, None, "tool_error"]
    assert unknown["attributes"]["error.type"] == "-32602"


def test_http_spans_follow_the_clients_traceparent_and_metrics_count_every_path() -> None:
    with otlp_receiver() as (receiver, env):
        with caller_server("--stateless", "--json-response", "--metrics", env=env) as server:
            for name in ("limited", "limited_ctx", "limited"):
                server.call(name, {})
            blocked = server.call("limited", {})  # the third in the window: refused
            assert blocked["isError"] is True
            traced = {
                "jsonrpc": "2.0",
                "id": 99,
                "method": "tools/call",
                "params": {
                    "name": "hooked",
                    "arguments": {"value": 1},
                    "_meta": {"traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01"},
                },
            }
            assert server.post(traced).status == 200
            metrics = server.request("GET", "/metrics")
            span = receiver.named("tools/call hooked")[0]
            fast = receiver.named("tools/call limited")
    assert metrics.status == 200
    assert (span["trace_id"], span["parent_id"]) == (TRACE_ID, PARENT_ID)
    assert span["attributes"]["jsonrpc.request.id"] == "99"
    assert len(fast) == 3 and fast[-1]["attributes"]["error.type"] == "tool_error"
    families = {
        f.name: f for f in prometheus_parser.text_string_to_metric_families(metrics.body.decode())
    }
    histogram = families["mcp_server_operation_duration_seconds"]
    counts = {
        (s.labels["method"], s.labels["tool"]): s.value
        for s in histogram.samples
        if s.name.endswith("_count")
    }
    assert counts[("tools/call", "limited")] == 3  # the fast path
    assert counts[("tools/call", "limited_ctx")] == 1  # the SDK's path
    assert counts[("tools/call", "hooked")] == 1
    calls = {
        s.labels["tool"]: s.value
        for s in families["mcp_server_tool_calls"].samples
        if s.name.endswith("_total")
    }
    errors = {
        s.labels["tool"]: s.value
        for s in families["mcp_server_tool_errors"].samples
        if s.name.endswith("_total")
    }
    assert calls["limited"] == 3 and errors == {"limited": 1}
