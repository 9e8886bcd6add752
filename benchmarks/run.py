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

# Targets: (figure, compared with, "<=" or ">=", bound). Ratios are generated / reference.
GENERATE_TARGET = 2.0  # full generate of 150 tools <= 2x one bare datamodel-code-generator run
REGEN_TARGET = 0.2  # a no-change generate <= 0.2x a full one
CLI_TARGET = 1.5  # `mcpgen --help` / `mcpgen validate` <= 1.5x a bare one-command Typer app
STDIO_TARGETS = {
    "cold_ms": ("lowlevel", "<=", 0.8),
    "rss_mb": ("lowlevel", "<=", 1.0),
    "cpu_us": ("lowlevel", "<=", 0.5),
    "p50_ms": ("typescript", "<=", 1.0),
    "rate32": ("lowlevel", ">=", 3.0),
}
HTTP_TARGETS = {"rate1": ("lowlevel", ">=", 1.2), "rate32": ("lowlevel", ">=", 1.2)}


def _settings(quick: bool) -> dict[str, Any]:
    if quick:
        return {
            "gen_reps": {20: 2, 150: 1},
            "cli_reps": 2,
            "cold_reps": 2,
            "rounds": 2,
            "calls": 100,
            "piped": 300,
            "http_rounds": 1,
            "http_calls": 20,
            "http_piped": 80,
        }
    return {
        "gen_reps": {20: 5, 150: 4},
        "cli_reps": 7,
        "cold_reps": 8,
        "rounds": 8,
        "calls": 300,
        "piped": 1000,
        "http_rounds": 3,
        "http_calls": 60,
        "http_piped": 240,
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


def _meets(ratio: float, op: str, bound: float) -> bool:
    return ratio <= bound if op == "<=" else ratio >= bound


def measure(quick: bool) -> dict[str, Any]:
    s = _settings(quick)
    figures: dict[str, Any] = {
        "mode": "quick" if quick else "normal",
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_before": _load(),
        "datamodel_code_generator": importlib.metadata.version("datamodel-code-generator"),
        "settings": s,
    }
    started = time.perf_counter()

    # 1. Generate speed (in-process), the CLI no-change regenerate and CLI start-up.
    figures["generate"] = {
        n: gen_bench.bench_size(n, reps, quick=quick) for n, reps in s["gen_reps"].items()
    }
    cli_sizes = (150,) if quick else (20, 150)
    figures["cli"] = {n: gen_bench.bench_cli_regen(n, s["cli_reps"]) for n in cli_sizes}
    figures["cli_startup"] = gen_bench.bench_cli_startup(s["cli_reps"])

    # 2. Servers: fresh projects, one venv, the same answers, then the figures.
    server_bench.make_weather(sys.executable)
    server_bench.make_big_project(sys.executable)
    server_bench.ensure_venv(sys.executable)
    figures["mcp"] = server_bench.venv_version("mcp")
    figures["node_skipped"] = server_bench.ensure_node()
    with_node = figures["node_skipped"] is None
    figures["node_sdk"] = server_bench.node_sdk_version() if with_node else None
    weather = server_bench.weather_servers(with_node)
    server_bench.same_results(weather)
    cold = server_bench.cold_start(weather, s["cold_reps"])
    stdio = server_bench.load(weather, s["rounds"], s["calls"], s["piped"])
    for name, times in cold.items():
        stdio[name]["cold_ms"] = [t * 1000 for t in times]
    figures["stdio"] = stdio
    big = server_bench.big_servers()
    big_cold = server_bench.cold_start(big, s["cold_reps"])
    figures["stdio200"] = {
        name: {"cold_ms": [t * 1000 for t in times]} for name, times in big_cold.items()
    }
    for name, cmd in big.items():  # peak RSS after tools/list, settled
        figures["stdio200"][name]["rss_mb"] = server_bench.idle_rss(cmd)
    figures["http"] = server_bench.http_load(s["http_rounds"], s["http_calls"], s["http_piped"])
    figures["load_after"] = _load()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


def _generate_table(f: dict[str, Any]) -> list[str]:
    g = f["generate"]
    sizes = sorted(g)
    lines = [
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
    row("  the same with the run cache off (decides in full)", "regen_full")
    row("bare datamodel-code-generator run", "bare")
    for n in sizes:
        g[n]["ratio_fresh"] = statistics.median(g[n]["ratios_fresh"])
        g[n]["ratio_regen"] = statistics.median(g[n]["ratios_regen"])
        g[n]["ratio_regen_fresh"] = g[n]["regen"] / g[n]["fresh"]
        if "regen_full" in g[n]:  # absent from runs saved before it was measured
            g[n]["ratio_regen_full_fresh"] = g[n]["regen_full"] / g[n]["fresh"]
        g[n]["spread_fresh"] = _spread(g[n]["ratios_fresh"])
    row("ratio fresh generate / bare", "ratio_fresh", "{:.2f}x")
    row("  (range over rounds)", "spread_fresh", "{}")
    row("ratio no-change regenerate / bare", "ratio_regen", "{:.2f}x")
    row("ratio no-change regenerate / fresh generate", "ratio_regen_fresh", "{:.3f}x")
    row("  the same with the run cache off", "ratio_regen_full_fresh", "{:.2f}x")
    big = g[max(sizes)]
    lines.append(
        f"  target: {max(sizes)} tools fresh generate <= {GENERATE_TARGET:g}x bare: "
        f"{big['ratio_fresh']:.2f}x -> {_verdict(big['ratio_fresh'] <= GENERATE_TARGET)}"
    )
    for n in sizes:
        ratio = g[n]["ratio_regen_fresh"]
        lines.append(
            f"  target: {n} tools no-change generate <= {REGEN_TARGET:g}x fresh: "
            f"{ratio:.2f}x -> {_verdict(ratio <= REGEN_TARGET)}"
        )
    for n, c in sorted(f["cli"].items()):
        lines.append(
            f"  CLI `python -m mcpgen generate` no change, {n} tools (wall, incl. start-up): "
            f"{c['cli_regen']:.2f} s  (`python -c pass`: {c['python_floor']:.3f} s)"
        )
        if "cli_regen_full" in c:
            lines.append(f"    the same with the run cache off: {c['cli_regen_full']:.2f} s")
    st = f["cli_startup"]
    typer_s = statistics.median(st["typer_help"])
    lines.append(
        f"  CLI start-up (wall, median of {len(st['typer_help'])}): bare Typer app --help "
        f"{typer_s:.3f} s, `python -c pass` {statistics.median(st['python_floor']):.3f} s"
    )
    if "typer_run" in st:  # absent from runs saved before it was measured
        ratios = [a / b for a, b in zip(st["mcpgen_validate"], st["typer_run"], strict=True)]
        lines.append(
            f"  bare Typer app running its command (Typer imports pydantic to coerce parameters): "
            f"{statistics.median(st['typer_run']):.3f} s; mcpgen validate "
            f"{statistics.median(ratios):.2f}x that"
        )
    for key, label in (("mcpgen_help", "mcpgen --help"), ("mcpgen_validate", "mcpgen validate")):
        ratios = [a / b for a, b in zip(st[key], st["typer_help"], strict=True)]
        ratio = statistics.median(ratios)
        lines.append(
            f"  {label:24}{statistics.median(st[key]):8.3f} s  {ratio:.2f}x Typer "
            f"({_spread(ratios)})  target <= {CLI_TARGET:g}x -> {_verdict(ratio <= CLI_TARGET)}"
        )
    return lines


ROWS = {
    "cold_ms": ("cold start, spawn -> tools/list answer (ms)", "{:.0f}"),
    "p50_ms": ("tools/call p50, 1 in flight (ms)", "{:.2f}"),
    "p99_ms": ("tools/call p99, 1 in flight (ms)", "{:.2f}"),
    "rate1": ("calls/s, 1 in flight", "{:.0f}"),
    "rate32": ("calls/s, 32 in flight", "{:.0f}"),
    "cpu_us": ("server CPU per call (us)", "{:.0f}"),
    "rss_mb": ("peak RSS (MB)", "{:.1f}"),
}
NAMES = ("generated", "lowlevel", "mcpserver", "typescript")


def _ratio(a: float | list[float], b: float | list[float]) -> tuple[float, list[float]]:
    """The median of per-round ratios when both are per-round lists, else the plain ratio."""
    if isinstance(a, list) and isinstance(b, list):
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        return statistics.median(ratios), ratios
    value = (statistics.median(a) if isinstance(a, list) else a) / (
        statistics.median(b) if isinstance(b, list) else b
    )
    return value, [value]


def _server_table(
    title: str, results: dict[str, Any], targets: dict[str, tuple[str, str, float]]
) -> list[str]:
    names = [n for n in NAMES if n in results]
    lines = [title, f"  {'':46}" + "".join(f"{n:>11}" for n in names)]
    lines[-1] += f"{'gen/low':>9}{'range':>11}{'gen/ts':>8}  target"
    for key, (label, fmt) in ROWS.items():
        if not any(key in results[n] for n in names):
            continue
        line = f"  {label:46}"
        for n in names:
            value = results[n].get(key)
            shown = statistics.median(value) if isinstance(value, list) else value
            line += f"{fmt.format(shown) if shown is not None else '-':>11}"
        gen = results["generated"].get(key)
        low = results.get("lowlevel", {}).get(key)
        if gen is not None and low is not None:
            ratio, ratios = _ratio(gen, low)
            line += f"{ratio:>8.2f}x{_spread(ratios):>11}"
        else:
            line += f"{'':20}"
        ts = results.get("typescript", {}).get(key)
        line += f"{_ratio(gen, ts)[0]:>7.2f}x" if gen is not None and ts is not None else f"{'':8}"
        if key in targets:
            versus, op, bound = targets[key]
            other = results.get(versus, {}).get(key)
            if gen is None or other is None:
                line += f"  gen/{versus[:3]} {op} {bound:g}: not measured"
            else:
                ratio = _ratio(gen, other)[0]
                ok = _meets(ratio, op, bound)
                line += f"  gen/{versus[:3]} {op} {bound:g} {_verdict(ok)}"
        lines.append(line)
    return lines


def table(f: dict[str, Any]) -> str:
    node = (
        f"TypeScript SDK {f['node_sdk']}"
        if f["node_sdk"]
        else f"TypeScript skipped ({f['node_skipped']})"
    )
    lines = [
        f"mcpgen benchmarks ({f['mode']}): Python {f['python']}, {f['cpus']} CPUs, "
        f"mcp {f['mcp']}, {node}, datamodel-code-generator {f['datamodel_code_generator']}, "
        f"load avg {f['load_before']} -> {f['load_after']}, took {f['seconds']} s",
        "",
        *_generate_table(f),
        "",
    ]
    s = f["settings"]
    lines += _server_table(
        f"SERVER, stdio, weather (medians over {s['rounds']} interleaved rounds of {s['calls']} "
        f"sequential + {s['piped']} pipelined calls; cold start n={s['cold_reps']})",
        f["stdio"],
        STDIO_TARGETS,
    )
    lines.append("")
    lines += _server_table(
        f"SERVER, stdio, {server_bench.BIG_TOOLS} real tools (cold start n={s['cold_reps']}; "
        f"peak RSS {server_bench.SETTLE_SECONDS:g} s after tools/list)",
        f["stdio200"],
        {k: v for k, v in STDIO_TARGETS.items() if k in ("cold_ms", "rss_mb")},
    )
    for mode, measured in f["http"].items():
        lines.append("")
        results = {"generated": {}, **measured}
        if not measured.get("generated"):
            lines.append(
                f"SERVER, HTTP {mode}: the generated server has no flag for this mode yet; "
                "references only"
            )
        lines += _server_table(
            f"SERVER, Streamable HTTP, {mode} (httpx2 client; {s['http_rounds']} rounds of "
            f"{s['http_calls']} sequential + {s['http_piped']} at 32 in flight)",
            results,
            HTTP_TARGETS if mode in ("stateful", "stateless") else {},
        )
    return "\n".join(line.rstrip() for line in lines)


def _from_json(path: Path) -> dict[str, Any]:
    figures: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    for key in ("generate", "cli"):
        figures[key] = {int(n): v for n, v in figures[key].items()}
    figures["settings"]["gen_reps"] = {
        int(n): v for n, v in figures["settings"]["gen_reps"].items()
    }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (< 3 min)")
    parser.add_argument("--out", type=Path, help="also write the table to FILE")
    parser.add_argument("--json", type=Path, help="also write the raw figures as JSON to FILE")
    parser.add_argument("--from-json", type=Path, help="print the table of a saved --json run")
    args = parser.parse_args()
    if args.from_json:
        print(table(_from_json(args.from_json)))
        return
    try:
        import mcpgen  # noqa: F401
    except ImportError as exc:
        raise SystemExit(
            f"run this with an interpreter that has mcpgen's dependencies: {exc}"
        ) from None
    figures = measure(args.quick)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str) + "\n", encoding="utf-8")
    text = table(figures)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
