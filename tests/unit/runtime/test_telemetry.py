"""Telemetry's pure parts: which requests the fast paths may answer with traces on, when
tracing is asked for, and what the metrics count."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest
from mcp.types import JSONRPCRequest

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch import telemetry
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import build_server
from mcpgen.runtime.stdio.fast_path import PlainAnswers
from tests.support.runtime.tiny_tools import TOOLS

INFO = ServerInfo(name="t", version="0.1.0", script="t-server", description="T.")
TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


def answers() -> PlainAnswers:
    dispatcher = Dispatcher(TOOLS)
    return PlainAnswers(dispatcher, build_server(INFO, dispatcher))


def request(method: str, params: dict[str, Any] | None) -> JSONRPCRequest:
    return JSONRPCRequest(jsonrpc="2.0", id=1, method=method, params=params)


@pytest.mark.parametrize("tracing", [True, False])
def test_a_trace_context_in_meta_stays_on_the_fast_path_only_with_traces_on(
    monkeypatch: pytest.MonkeyPatch, tracing: bool
) -> None:
    monkeypatch.setattr(telemetry.TELEMETRY, "tracing", tracing)
    plain = answers().plain
    traced = {"_meta": {"traceparent": TRACEPARENT, "tracestate": "a=b"}}
    assert plain(request("ping", traced)) is tracing
    assert plain(request("tools/list", traced)) is tracing
    assert (
        plain(request("ping", {"_meta": {"traceparent": TRACEPARENT, "progressToken": 1}})) is False
    )
    assert plain(request("ping", {"_meta": {}})) is False
    assert plain(request("ping", {"_meta": {"traceparent": 5}})) is False


def test_tracing_is_asked_for_by_an_endpoint_variable() -> None:
    found = importlib.util.find_spec("opentelemetry.sdk") is not None
    endpoint = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}
    assert telemetry.tracing_requested(endpoint) is found
    assert not telemetry.tracing_requested({})
    assert not telemetry.tracing_requested({**endpoint, "OTEL_SDK_DISABLED": "true"})


def test_metrics_count_calls_errors_and_durations() -> None:
    pytest.importorskip("prometheus_client")
    metrics = telemetry.Metrics()
    metrics.record("tools/call", {"name": "a"}, {"content": [], "isError": False}, 0.01)
    metrics.record("tools/call", {"name": "a"}, {"content": [], "isError": True}, 0.01)
    metrics.record("tools/call", {"name": "b"}, None, 0.01)  # a JSON-RPC error
    metrics.record("ping", None, {}, 0.001)
    text = metrics.text().decode()
    assert 'mcp_server_tool_calls_total{tool="a"} 2.0' in text
    assert 'mcp_server_tool_errors_total{tool="a"} 1.0' in text
    assert 'mcp_server_tool_errors_total{tool="b"} 1.0' in text
    assert 'mcp_server_operation_duration_seconds_count{method="ping",tool=""} 1.0' in text


def test_metrics_without_the_extra_refuse_to_start_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(module: str) -> Any:
        raise ModuleNotFoundError(f"No module named {module!r}")

    monkeypatch.setattr(telemetry, "_optional", missing)
    monkeypatch.setattr(telemetry, "TELEMETRY", telemetry.Telemetry())
    with pytest.raises(SystemExit, match=r"--metrics needs the project's `otel` extra"):
        telemetry.configure("weather", metrics=True)
