# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""OpenTelemetry traces and Prometheus metrics, on every path a request can take.

The SDK wraps each request it answers in a server span (`mcp.server._otel`). The fast paths
answer plain requests without the SDK's machinery, so they open the very same span here,
through the SDK's own middleware: same name (`tools/call NAME`), same attributes, same error
marking. Spans reach a collector when the project's `otel` extra is installed and the
standard OpenTelemetry variables name one (`OTEL_EXPORTER_OTLP_ENDPOINT` or
`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_SERVICE_NAME`, ...): `configure` then installs a
tracer provider that exports over OTLP. Without them, a request pays one attribute check.

`--metrics` (HTTP, with the extra) counts every request, the SDK's and the fast paths':
`mcp_server_operation_duration_seconds` (a histogram, labels `method` and `tool`),
`mcp_server_tool_calls_total` and `mcp_server_tool_errors_total` (label `tool`), served as
Prometheus text at `/metrics`.
"""

from __future__ import annotations

import atexit
import importlib.util
import logging
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

TRACE_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
METRICS_PATH = "/metrics"
Answer = Callable[[], Awaitable[dict[str, Any]]]


class Telemetry:
    """What this process records: spans (`tracing`), metrics (`metrics`), or nothing."""

    def __init__(self) -> None:
        self.tracing = False
        self.metrics: Metrics | None = None
        self._middleware: Any = None

    @property
    def on(self) -> bool:
        """True when spans or metrics are recorded: a fast path's answer goes through
        `observe` only then."""
        return self.tracing or self.metrics is not None

    async def observe(
        self,
        method: str,
        params: Mapping[str, Any],
        request_id: Any,
        version: str,
        answer: Answer,
    ) -> dict[str, Any]:
        """`answer()` (a fast path's result for one request), in the span the SDK would open
        for it and counted in the metrics."""
        started = time.perf_counter()
        outcome: dict[str, Any] | None = None
        try:
            if self.tracing:
                outcome = await self._traced(method, params, request_id, version, answer)
            else:
                outcome = await answer()
            return outcome
        finally:
            if self.metrics is not None:
                self.metrics.record(method, params, outcome, time.perf_counter() - started)

    async def _traced(
        self, method: str, params: Mapping[str, Any], request_id: Any, version: str, answer: Answer
    ) -> dict[str, Any]:
        if self._middleware is None:
            from mcp.server._otel import OpenTelemetryMiddleware  # noqa: PLC0415

            self._middleware = OpenTelemetryMiddleware()
        # What the SDK's middleware reads of its request context: a fast path's `_meta`
        # holds a trace context at most (`trace_context_only`), the span's parent.
        meta = params.get("_meta")
        request = _Request(method, dict(params) or None, request_id, version, meta)

        async def call_next(ctx: Any) -> dict[str, Any]:
            return await answer()

        result: dict[str, Any] = await self._middleware(request, call_next)
        return result


@dataclass(frozen=True)
class _Request:
    method: str
    params: Mapping[str, Any] | None
    request_id: Any
    protocol_version: str
    meta: Any = None


TELEMETRY = Telemetry()
# W3C trace context, as the SDK's client puts it in a request's `_meta` when it traces.
TRACE_CONTEXT_KEYS = frozenset({"traceparent", "tracestate", "baggage"})


def trace_context_only(meta: object) -> bool:
    """True, with traces on, for a `_meta` that carries a trace context and nothing else:
    the answer does not depend on it, only the span's parent does."""
    return (
        TELEMETRY.tracing
        and isinstance(meta, dict)
        and bool(meta)
        and TRACE_CONTEXT_KEYS.issuperset(meta)
        and all(isinstance(value, str) for value in meta.values())
    )


def tracing_requested(environ: Mapping[str, str] | None = None) -> bool:
    """True when the environment names an OTLP collector and the OpenTelemetry SDK is there
    (the project's `otel` extra)."""
    env = os.environ if environ is None else environ
    if not any(env.get(name) for name in TRACE_VARIABLES):
        return False
    if env.get("OTEL_SDK_DISABLED", "").lower() == "true":
        return False
    return importlib.util.find_spec("opentelemetry.sdk") is not None


def configure(service: str, *, metrics: bool = False) -> Telemetry:
    """Set up what the environment and `--metrics` ask for, once, before serving."""
    if tracing_requested() and not TELEMETRY.tracing:
        try:
            _install_tracer_provider(service)
        except ImportError as exc:  # the extra without its OTLP exporter
            logger.warning("OpenTelemetry traces are off: %s", exc)
        else:
            TELEMETRY.tracing = True
    if metrics and TELEMETRY.metrics is None:
        try:
            TELEMETRY.metrics = Metrics()
        except ImportError:
            raise SystemExit(
                f"{service}: --metrics needs the project's `otel` extra: pip install '.[otel]'"
            ) from None
    return TELEMETRY


def _optional(module: str) -> Any:
    """A module of the `otel` extra (typed `Any`: the project type-checks without it)."""
    return importlib.import_module(module)


def _install_tracer_provider(service: str) -> None:
    trace = _optional("opentelemetry.trace")
    exporter = _optional("opentelemetry.exporter.otlp.proto.http.trace_exporter")
    resources = _optional("opentelemetry.sdk.resources")
    sdk_trace = _optional("opentelemetry.sdk.trace")
    export = _optional("opentelemetry.sdk.trace.export")

    # The server's name, unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES name it.
    resource = resources.Resource.create({"service.name": service})
    resource = resource.merge(resources.OTELResourceDetector().detect())
    if os.environ.get("OTEL_SERVICE_NAME"):
        named = resources.Resource({"service.name": os.environ["OTEL_SERVICE_NAME"]})
        resource = resource.merge(named)
    provider = sdk_trace.TracerProvider(resource=resource)
    provider.add_span_processor(export.BatchSpanProcessor(exporter.OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    atexit.register(provider.shutdown)  # the last spans go out before the process ends


class Metrics:
    """The Prometheus metrics of one server process (its own registry)."""

    def __init__(self) -> None:
        prometheus = _optional("prometheus_client")
        self._prometheus = prometheus
        self.registry = prometheus.CollectorRegistry()
        self._duration = prometheus.Histogram(
            "mcp_server_operation_duration_seconds",
            "Time to answer one MCP request, by method and tool.",
            ["method", "tool"],
            registry=self.registry,
        )
        self._calls = prometheus.Counter(
            "mcp_server_tool_calls",
            "tools/call requests, by tool.",
            ["tool"],
            registry=self.registry,
        )
        self._errors = prometheus.Counter(
            "mcp_server_tool_errors",
            "tools/call requests answered with an error (isError or a JSON-RPC error), by tool.",
            ["tool"],
            registry=self.registry,
        )

    def record(
        self, method: str, params: Mapping[str, Any] | None, result: Any, seconds: float
    ) -> None:
        """One answered request; `result` is its wire result, None when it failed."""
        name = params.get("name") if isinstance(params, Mapping) else None
        tool = name if method == "tools/call" and isinstance(name, str) else ""
        self._duration.labels(method=method, tool=tool).observe(seconds)
        if method == "tools/call":
            self._calls.labels(tool=tool).inc()
            if not isinstance(result, Mapping) or result.get("isError") is True:
                self._errors.labels(tool=tool).inc()

    def text(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        text: bytes = self._prometheus.generate_latest(self.registry)
        return text

    async def middleware(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        """Server middleware: the SDK's requests, counted as the fast paths count theirs."""
        started = time.perf_counter()
        result = None
        try:
            result = await call_next(ctx)
            return result
        finally:
            self.record(ctx.method, ctx.params, result, time.perf_counter() - started)

    async def endpoint(self, request: Any) -> Any:
        """`GET /metrics`."""
        from starlette.responses import Response  # noqa: PLC0415  (HTTP only)

        content_type = self._prometheus.CONTENT_TYPE_LATEST
        return Response(self.text(), headers={"Content-Type": content_type})


def is_metrics_middleware(middleware: object) -> bool:
    """Whether `middleware` is `Metrics.middleware` (which the fast paths reproduce)."""
    return isinstance(getattr(middleware, "__self__", None), Metrics)
