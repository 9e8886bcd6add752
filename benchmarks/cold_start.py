"""On its own (`python benchmarks/cold_start.py [--reps N]`): stdio cold start of the generated
server next to the low-level reference, at 3 tools (weather) and 200, interleaved: spawn ->
`initialize` answer -> `tools/list` answer, then the first `tools/call` right after it (its
latency, and spawn -> its answer), then peak RSS once the server has settled (`--settle`
seconds later: the generated server loads the SDK meanwhile); and in a second start of each,
peak RSS settled after tools/list with no call (what `run.py` reports at 200 tools).

Uses `run.py`'s venv and projects, and makes them when missing. `--before-weather SRC` and
`--before-200 SRC` add another build of the generated project (its `src` directory, e.g. one
made by an older mcpgen) as `before`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import server_bench as sb

FIGURES = ("initialize", "tools/list", "first call", "spawn to call", "RSS called", "RSS listed")


def _one(cmd: sb.ServerCmd, tool: str, arguments: dict[str, Any], settle: float) -> list[float]:
    start = time.perf_counter()
    session = sb.RawSession(cmd)
    try:
        session.initialize()
        initialized = time.perf_counter() - start
        session.request("tools/list", {})
        listed = time.perf_counter() - start
        try:  # a stub's "not implemented" is an answer too: timed the same
            session.call(tool, arguments)
        except RuntimeError:  # the reference publishes the 200 tools but runs weather's only
            pass
        called = time.perf_counter() - start
        time.sleep(settle)
        rss = sb.peak_rss_mb(session.proc.pid)
        figures = [initialized * 1000, listed * 1000, (called - listed) * 1000, called * 1000, rss]
    finally:
        session.close()
    session = sb.RawSession(cmd)
    try:
        session.initialize()
        session.request("tools/list", {})
        time.sleep(settle)
        return [*figures, sb.peak_rss_mb(session.proc.pid)]
    finally:
        session.close()


def _run(
    label: str,
    cmds: dict[str, sb.ServerCmd],
    tool: str,
    arguments: dict[str, Any],
    *,
    reps: int,
    settle: float,
) -> None:
    rows: dict[str, list[list[float]]] = {name: [] for name in cmds}
    for i in range(reps + 1):
        for name in sb._order(list(cmds), i):
            figures = _one(cmds[name], tool, arguments, settle)
            if i:  # run 0 writes the .pyc files
                rows[name].append(figures)
    print(f"\n{label}: median of {reps} interleaved starts (ms; RSS in MB)")
    print(f"{'':14}" + "".join(f"{f:>15}" for f in FIGURES))
    for name, runs in rows.items():
        medians = [statistics.median(r[k] for r in runs) for k in range(len(FIGURES))]
        print(f"{name:14}" + "".join(f"{m:15.1f}" for m in medians))
    reference = rows["lowlevel"]
    for name, runs in rows.items():
        if name == "lowlevel":
            continue
        # Paired within a repetition, as run.py pairs its ratios.
        ratios = [a[1] / b[1] for a, b in zip(runs, reference, strict=True)]
        print(
            f"  {name} / lowlevel, spawn -> tools/list: median {statistics.median(ratios):.2f}x"
            f" (range {min(ratios):.2f}-{max(ratios):.2f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--before-weather", metavar="SRC")
    parser.add_argument("--before-200", metavar="SRC")
    parser.add_argument("--only", choices=("weather", "200"), default=None)
    args = parser.parse_args()
    if not sb.WEATHER.exists():
        sb.make_weather(sys.executable)
    if not (sb.BIG / "tools.json").exists():
        sb.make_big_project(sys.executable)
    sb.ensure_venv(sys.executable)
    if args.only != "200":
        cmds = sb.weather_servers(with_node=False)
        del cmds["mcpserver"]
        if args.before_weather:
            env = {"PYTHONPATH": args.before_weather}
            cmds["before"] = sb.ServerCmd("before", cmds["generated"].argv, env)
        _run(
            "weather, 3 tools",
            cmds,
            "get_forecast",
            sb.FORECAST_ARGS,
            reps=args.reps,
            settle=args.settle,
        )
    if args.only != "weather":
        tools = json.loads((sb.BIG / "tools.json").read_text(encoding="utf-8"))
        cmds = sb.big_servers()
        if args.before_200:
            env = {"PYTHONPATH": args.before_200}
            cmds["before"] = sb.ServerCmd("before200", cmds["generated"].argv, env)
        _run(
            "200 tools",
            cmds,
            sb.first_tool_without_arguments(tools),
            {},
            reps=args.reps,
            settle=args.settle,
        )


if __name__ == "__main__":
    main()
