"""`python with_otel.py SERVER.py [args]`: run a hand-written SDK server with the
OpenTelemetry SDK exporting its spans over OTLP/HTTP (the standard OTEL_* variables), as
`opentelemetry-instrument` would set it up: the SDK's own tracing, switched on."""

from __future__ import annotations

import runpy
import sys

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

provider = TracerProvider()
provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
trace.set_tracer_provider(provider)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
