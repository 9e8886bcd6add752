"""mcpgen benchmarks: generate speed and generated-server speed, printed as a table of ratios.

    python benchmarks/run.py [--quick] [--out FILE] [--json FILE]

Run it with an interpreter that has mcpgen's dependencies (e.g. the dev venv). It creates what
it needs under benchmarks/.work/ (a venv with mcp 2.3.0 for the servers, the weather project,
the benchmark manifests) and can be re-run at any time. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(REPO), str(BENCH)]

import gen_bench  # noqa: E402
import server_bench  # noqa: E402

GENERATE_TARGET = 3.0  # 150 tools generate in under 3x one bare datamodel-code-generator run


def _settings(quick: bool) -> dict[str, Any]:
    if quick:
        return {
            "gen_reps": {20: 2, 150: 1},
            "cli_reps": 1,
            "cold_reps": 4,
            "rps_rounds": 4,
            "rps_calls": 50,
            "sdk_rounds": 2,
            "sdk_calls": 40,
        }
    return {
        "gen_reps": {20: 7, 150: 5},
        "cli_reps": 5,
        "cold_reps": 15,
        "rps_rounds": 15,
        "rps_calls": 200,
        "sdk_rounds": 8,
        "sdk_calls": 100,
    }


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def _spread(ratios: list[float]) -> str:
    """Lowest-highest paired ratio; with 4+ rounds the quartiles instead (drops outliers)."""
    if len(ratios) >= 4:
        q = statistics.quantiles(ratios, n=4)
        return f"{q[0]:.2f}-{q[2]:.2f}"
    return f"{min(ratios):.2f}-{max(ratios):.2f}"


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def measure(quick: bool) -> dict[str, Any]:
    s = _settings(quick)
    figures: dict[str, Any] = {
        "mode": "quick" if quick else "normal",
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_before": _load(),
        "datamodel_code_generator": importlib.metadata.version("datamodel-code-generator"),
    }
    started = time.perf_counter()

    # 1. Generate speed (in-process), then the CLI no-change regenerate (a subprocess).
    figures["generate"] = {
        n: gen_bench.bench_size(n, reps, quick=quick) for n, reps in s["gen_reps"].items()
    }
    cli_sizes = (150,) if quick else (20, 150)
    figures["cli"] = {n: gen_bench.bench_cli_regen(n, s["cli_reps"]) for n in cli_sizes}

    # 2. Server speed: fresh weather project, shared venv, same answers, then the figures.
    server_bench.make_weather(sys.executable)
    server_bench.ensure_venv(sys.executable)
    figures["mcp"] = server_bench.venv_version("mcp")
    server_bench.same_results()
    figures["cold_start"] = server_bench.cold_start(s["cold_reps"])
    figures["rps_forecast"] = server_bench.round_trips(
        "get_forecast", server_bench.FORECAST_ARGS, s["rps_rounds"], s["rps_calls"]
    )
    figures["rps_alerts"] = server_bench.round_trips(
        "get_alerts", server_bench.ALERTS_ARGS, s["rps_rounds"], s["rps_calls"]
    )
    figures["rps_sdk"] = server_bench.sdk_client_round_trips(s["sdk_rounds"], s["sdk_calls"])
    figures["settings"] = s
    figures["load_after"] = _load()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


def table(f: dict[str, Any]) -> str:
    g = f["generate"]
    sizes = sorted(g)
    lines = [
        f"mcpgen benchmarks ({f['mode']}): Python {f['python']}, {f['cpus']} CPUs, "
        f"mcp {f['mcp']}, datamodel-code-generator {f['datamodel_code_generator']}, "
        f"load avg {f['load_before']} -> {f['load_after']}, took {f['seconds']} s",
        "",
        "GENERATE (in-process, warm, median of "
        + ", ".join(f"{f['settings']['gen_reps'][n]} for {n}" for n in sizes)
        + " runs)",
        f"{'':50}" + "".join(f"{str(n) + ' tools':>12}" for n in sizes),
        "  (times: medians; ratios: median of per-round ratios, paired within a round)",
    ]

    def row(label: str, key: str, fmt: str = "{:.3f} s") -> None:
        if all(key in g[n] for n in sizes):
            lines.append(f"  {label:48}" + "".join(f"{fmt.format(g[n][key]):>12}" for n in sizes))

    row("load + validate manifest", "load")
    row("  models only (mcpgen's datamodel-codegen call)", "render_models")
    row("validate + render, in memory", "validate_render")
    row("generate, fresh project (load+render+write)", "fresh")
    row("generate again, no change (writes nothing)", "regen")
    row("bare datamodel-code-generator run", "bare")
    for n in sizes:
        g[n]["ratio_fresh"] = statistics.median(g[n]["ratios_fresh"])
        g[n]["ratio_regen"] = statistics.median(g[n]["ratios_regen"])
        g[n]["spread_fresh"] = _spread(g[n]["ratios_fresh"])
        g[n]["spread_regen"] = _spread(g[n]["ratios_regen"])
    row("ratio fresh generate / bare", "ratio_fresh", "{:.2f}x")
    row("  (range over rounds)", "spread_fresh", "{}")
    row("ratio no-change regenerate / bare", "ratio_regen", "{:.2f}x")
    row("  (range over rounds)", "spread_regen", "{}")
    big = g[max(sizes)]
    lines.append(
        f"  target: {max(sizes)} tools generate < {GENERATE_TARGET:g}x bare: "
        f"{big['ratio_fresh']:.2f}x -> {_verdict(big['ratio_fresh'] < GENERATE_TARGET)}"
    )
    for n, c in sorted(f["cli"].items()):
        lines.append(
            f"  CLI `python -m mcpgen generate` no change, {n} tools (wall, incl. start-up): "
            f"{c['cli_regen']:.2f} s  (`python -c pass`: {c['python_floor']:.3f} s)"
        )

    c, rf, ra, rs = f["cold_start"], f["rps_forecast"], f["rps_alerts"], f["rps_sdk"]
    lines += [
        "",
        "SERVER (weather, stdio, same venv; generated = mcpgen low-level Server, "
        "handwritten = SDK MCPServer)",
        "  (figures: medians; gen/hand: median of per-round ratios, paired within a round,"
        " with its quartile range)",
        f"  {'':48}{'generated':>11}{'handwritten':>13}{'gen/hand':>10}{'range':>12}  target",
    ]

    def srow(label: str, d: dict[str, Any], fmt: str, lower_better: bool) -> None:
        ratio = statistics.median(d["ratios"])
        d["ratio"] = ratio
        ok = ratio <= 1.0 if lower_better else ratio >= 1.0
        target = ("<= 1.00 " if lower_better else ">= 1.00 ") + _verdict(ok)
        lines.append(
            f"  {label:48}{fmt.format(d['generated']):>11}{fmt.format(d['handwritten']):>13}"
            f"{ratio:>9.2f}x{_spread(d['ratios']):>12}  {target}"
        )

    cold_ms = {**c, "generated": c["generated"] * 1000, "handwritten": c["handwritten"] * 1000}
    srow(
        f"cold start, spawn -> initialize answer (ms, n={f['settings']['cold_reps']})",
        cold_ms,
        "{:.0f}",
        lower_better=True,
    )
    srow("tools/call get_forecast per s (raw JSON-RPC)", rf, "{:.0f}", lower_better=False)
    srow("tools/call get_alerts per s (raw JSON-RPC)", ra, "{:.0f}", lower_better=False)
    srow("tools/call get_forecast per s (SDK Client)", rs, "{:.0f}", lower_better=False)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (< 60 s)")
    parser.add_argument("--out", type=Path, help="also write the table to FILE")
    parser.add_argument("--json", type=Path, help="also write the raw figures as JSON to FILE")
    args = parser.parse_args()
    try:
        import mcpgen  # noqa: F401
    except ImportError as exc:
        raise SystemExit(
            f"run this with an interpreter that has mcpgen's dependencies: {exc}"
        ) from None
    figures = measure(args.quick)
    text = table(figures)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
