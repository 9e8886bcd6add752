"""What OpenTelemetry costs a server over stdio: the generated weather server and the SDK's
hand-written low-level one, each with tracing off and on (spans exported over OTLP/HTTP to a
sink in this process that accepts and drops them).

    python benchmarks/otel_cost.py [--rounds 3] [--calls 300] [--piped 600]

Runs with this interpreter (it needs mcpgen's `test` extra: the OpenTelemetry SDK and its
OTLP exporter); the generated project is a fresh `mcpgen new weather` under
`benchmarks/.work/otel/`. Same method as `server_bench.load`: sequential calls (calls/s),
32 in flight (calls/s), server CPU per call; medians over rounds, order rotated.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import server_bench as bench

WORK = bench.WORK / "otel"


class Sink(BaseHTTPRequestHandler):
    """An OTLP/HTTP endpoint that accepts every export and keeps nothing."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def make_project() -> None:
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    subprocess.run(
        [sys.executable, "-m", "mcpgen", "new", str(WORK / "weather"), "--no-input", "--no-git"],
        cwd=bench.REPO,
        check=True,
        capture_output=True,
    )


def servers(endpoint: str) -> dict[str, bench.ServerCmd]:
    py = sys.executable
    otel = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        "OTEL_SERVICE_NAME": "bench",
    }
    generated = {"PYTHONPATH": str(WORK / "weather" / "src")}
    lowlevel = str(bench.SERVERS / "lowlevel_weather.py")
    with_otel = str(bench.SERVERS / "with_otel.py")
    return {
        "generated, otel off": bench.ServerCmd("gen-off", [py, "-m", "weather"], generated),
        "generated, otel on": bench.ServerCmd(
            "gen-on", [py, "-m", "weather"], {**generated, **otel}
        ),
        "sdk lowlevel, otel off": bench.ServerCmd("sdk-off", [py, lowlevel]),
        "sdk lowlevel, otel on": bench.ServerCmd("sdk-on", [py, with_otel, lowlevel], otel),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--piped", type=int, default=600)
    args = parser.parse_args()
    make_project()
    sink = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{sink.server_address[1]}"
    try:
        cmds = servers(endpoint)
        by_name = {cmd.name: label for label, cmd in cmds.items()}
        figures = bench.load(
            {c.name: c for c in cmds.values()}, args.rounds, args.calls, args.piped
        )
    finally:
        sink.shutdown()
    print(f"{'server':<26}{'calls/s (1)':>12}{'calls/s (32)':>14}{'CPU µs/call':>13}")
    for name, values in figures.items():
        print(
            f"{by_name[name]:<26}{statistics.median(values['rate1']):>12.0f}"
            f"{statistics.median(values['rate32']):>14.0f}{statistics.median(values['cpu_us']):>13.0f}"
        )


if __name__ == "__main__":
    main()
