"""On its own (`python benchmarks/first_call.py [--reps N]`): the 200-tool server's peak RSS
after tools/list and after its first tools/call, and that first call's latency (the import of
the tool's handler and models), next to the low-level reference. Uses `run.py`'s venv and
`bench200` project, and makes them when missing."""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import server_bench as sb


def _one(cmd: sb.ServerCmd, tool: str) -> tuple[float, float, float]:
    session = sb.RawSession(cmd)
    try:
        session.initialize()
        session.request("tools/list", {})
        time.sleep(sb.SETTLE_SECONDS)  # the generated server loads the SDK after tools/list
        listed = sb.peak_rss_mb(session.proc.pid)
        start = time.perf_counter()
        try:  # a stub's "not implemented" is an answer too: timed the same
            session.call(tool, {})
        except RuntimeError:  # the reference publishes the 200 tools but runs weather's only
            pass
        elapsed = time.perf_counter() - start
        return listed, sb.peak_rss_mb(session.proc.pid), elapsed * 1000
    finally:
        session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--regenerate", action="store_true", help="re-generate bench200")
    reps = parser.parse_args().reps
    if not sb.WEATHER.exists():
        sb.make_weather(sys.executable)
    sb.ensure_venv(sys.executable)
    if parser.parse_args().regenerate or not (sb.BIG / "tools.json").exists():
        sb.make_big_project(sys.executable)
    import json

    tools = json.loads((sb.BIG / "tools.json").read_text(encoding="utf-8"))
    tool = sb.first_tool_without_arguments(tools)
    cmds = sb.big_servers()
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in cmds}
    for i in range(reps + 1):
        for name in sb._order(list(cmds), i):
            if i:  # run 0 writes the .pyc files
                figures[name].append(_one(cmds[name], tool))
            else:
                _one(cmds[name], tool)
    print(f"200 tools, first call of {tool!r}, median of {reps} (stdio)")
    print(f"{'':12}{'RSS listed MB':>15}{'RSS called MB':>15}{'first call ms':>15}")
    for name, rows in figures.items():
        cols = [statistics.median(r[k] for r in rows) for k in range(3)]
        print(f"{name:12}{cols[0]:15.1f}{cols[1]:15.1f}{cols[2]:15.1f}")


if __name__ == "__main__":
    main()
