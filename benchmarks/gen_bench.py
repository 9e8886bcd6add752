"""Generate-speed benchmark: mcpgen validate+generate vs one bare datamodel-code-generator run.

Runs in-process (mcpgen imported once, interpreter start-up excluded), except the CLI
figure, which is a `python -m mcpgen generate DIR` subprocess on purpose.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "corpus" / "real"
WORK = REPO / "benchmarks" / ".work"
NO_RUN_CACHE = "MCPGEN_NO_RUN_CACHE"  # mcpgen.generation.run_cache.DISABLE_ENV
# generate's no-change records go here, not into the user's cache folder.
os.environ.setdefault("MCPGEN_CACHE_DIR", str(WORK / "cache"))

# Keys of a tools/list entry that a manifest tool takes as they are (camelCase accepted).
TOOL_KEYS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


def corpus_tools(count: int) -> list[dict[str, Any]]:
    """`count` real tools, round-robin over the corpus files in sorted order.

    Tool 0 of every file, then tool 1 of every file, ... so a manifest mixes servers
    (pydantic-, zod- and OpenAPI-made schemas) instead of being one server's tools.
    A tool whose name, or whose name as a Python identifier, was already taken is skipped.
    """
    files = sorted(CORPUS.glob("*.json"))
    if not files:
        raise SystemExit(f"corpus not found: {CORPUS}")
    servers = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    chosen: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index in range(max(len(s) for s in servers)):
        for tools in servers:
            if index >= len(tools):
                continue
            tool = tools[index]
            key = re.sub(r"[^0-9a-z]+", "_", tool["name"].lower()).strip("_")
            if key in seen:
                continue
            seen.add(key)
            chosen.append({k: tool[k] for k in TOOL_KEYS if tool.get(k) is not None})
            if len(chosen) == count:
                return chosen
    raise SystemExit(f"the corpus has fewer than {count} distinct tools")


def manifest_text(name: str, tools: list[dict[str, Any]]) -> str:
    """A manifest with the tools pasted in JSON flow style (valid YAML), as a user would."""
    head = (
        f"name: {name}\nversion: 1.0.0\n"
        f"description: Benchmark manifest ({len(tools)} real tools).\n"
    )
    return head + "tools: " + json.dumps(tools, indent=1, ensure_ascii=False) + "\n"


def bare_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same schemas as the MCP-tools document datamodel-code-generator reads."""
    keys = ("name", "inputSchema", "outputSchema")
    return [{k: t[k] for k in keys if k in t} for t in tools]


def write_manifest(directory: Path, count: int) -> tuple[Path, list[dict[str, Any]]]:
    tools = corpus_tools(count)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "mcpgen.yaml"
    path.write_text(manifest_text(f"bench{count}", tools), encoding="utf-8")
    return path, tools


def validate_cli(manifest: Path) -> None:
    """`python -m mcpgen validate` must accept the manifest (checked once per run)."""
    done = subprocess.run(
        [sys.executable, "-m", "mcpgen", "validate", str(manifest)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"benchmark manifest does not validate:\n{done.stdout}\n{done.stderr}")


def bare_generate(tools: list[dict[str, Any]]) -> str:
    """ONE datamodel-code-generator run, its defaults except builtin formatter + no timestamp."""
    from datamodel_code_generator import generate
    from datamodel_code_generator.enums import DataModelType, InputFileType

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        source = generate(
            tools,
            input_file_type=InputFileType("mcp-tools"),
            output_model_type=DataModelType.PydanticV2BaseModel,
            disable_timestamp=True,
            formatters=["builtin"],  # type: ignore[list-item]  # accepted as str
        )
    assert isinstance(source, str)
    return source


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


_WARMED: set[str] = set()  # "imports": a warm-up has run in this process


def bench_size(count: int, reps: int, *, quick: bool = False) -> dict[str, Any]:
    """Median seconds of each step for a `count`-tool manifest, interleaved.

    One warm-up run first (imports, caches), not counted: per size normally, only once per
    process with `quick`, which also skips the breakdown steps and the CLI validate.
    """

    from mcpgen.generation import generate_project
    from mcpgen.manifest import load_manifest
    from mcpgen.models.codegen import render_models
    from mcpgen.render.plan import render_plan

    base = WORK / f"gen{count}"
    shutil.rmtree(base, ignore_errors=True)
    manifest_path, tools = write_manifest(base / "manifest", count)
    if not quick:
        validate_cli(manifest_path)
    schemas = bare_tools(tools)

    def validate_render() -> Any:
        return render_plan(load_manifest(manifest_path))

    def fresh_root(i: int) -> Path:
        root = base / f"fresh{i}"
        root.mkdir(parents=True)
        shutil.copy(manifest_path, root / "mcpgen.yaml")
        return root

    steps: dict[str, list[float]] = {}
    warmup = not (quick and _WARMED)
    _WARMED.add("imports")
    for i in range(reps + 1 if warmup else reps):
        counted = i > 0 or not warmup
        manifest = load_manifest(manifest_path)
        root = fresh_root(i)
        jobs: list[tuple[str, Callable[[], Any]]] = [
            ("bare", lambda: bare_generate(schemas)),
            ("fresh", partial(generate_project, root)),
            ("load", lambda: load_manifest(manifest_path)),
        ]
        if not quick:
            jobs += [
                ("render_models", partial(render_models, manifest)),
                ("validate_render", validate_render),
            ]
        shift = i % len(jobs)  # rotate the order so drift on a noisy machine spreads evenly
        results = {}
        for name, job in jobs[shift:] + jobs[:shift]:
            seconds, results[name] = _timed(job)
            if counted:
                steps.setdefault(name, []).append(seconds)
        assert results["fresh"].written, "fresh generate wrote nothing"
        # The no-change regenerate: right after the fresh one, on the same directory.
        seconds, again = _timed(partial(generate_project, root))
        assert not again.written and not again.applied.changes, (
            f"no-change regenerate would write {[a.path for a in again.applied.changes]}"
        )
        if counted:
            steps.setdefault("regen", []).append(seconds)
        # The same, deciding in full: the record in the run cache turned off.
        os.environ[NO_RUN_CACHE] = "1"
        try:
            seconds, again = _timed(partial(generate_project, root))
        finally:
            del os.environ[NO_RUN_CACHE]
        assert not again.written and not again.applied.changes
        if counted:
            steps.setdefault("regen_full", []).append(seconds)
        shutil.rmtree(root)
    medians: dict[str, Any] = {k: statistics.median(v) for k, v in steps.items()}
    # Paired per round (same round, same conditions), as the table's ratios.
    medians["ratios_fresh"] = [f / b for f, b in zip(steps["fresh"], steps["bare"], strict=True)]
    medians["ratios_regen"] = [r / b for r, b in zip(steps["regen"], steps["bare"], strict=True)]
    medians["tools"] = count
    medians["with_output_schema"] = sum("outputSchema" in t for t in tools)
    return medians


def bench_cli_regen(count: int, reps: int) -> dict[str, float]:
    """Wall time of `python -m mcpgen generate DIR` with nothing to do, and of `python -c pass`."""

    from mcpgen.generation import generate_project

    root = WORK / f"gen{count}" / "cli"  # written by bench_size(count) first
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    shutil.copy(WORK / f"gen{count}" / "manifest" / "mcpgen.yaml", root / "mcpgen.yaml")
    generate_project(root)
    generate = [sys.executable, "-m", "mcpgen", "generate", str(root)]
    commands = {
        "cli_regen": (generate, {}),
        "cli_regen_full": (generate, {NO_RUN_CACHE: "1"}),
        "python_floor": ([sys.executable, "-c", "pass"], {}),
    }
    times: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(reps):
        for name, (argv, extra) in commands.items():
            start = time.perf_counter()
            env = {**os.environ, **extra}
            done = subprocess.run(argv, cwd=REPO, capture_output=True, check=False, env=env)
            times[name].append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr.decode()}")
    return {k: statistics.median(v) for k, v in times.items()}


def bench_cli_startup(reps: int) -> dict[str, list[float]]:
    """Wall seconds of `mcpgen --help`, `mcpgen validate` (the weather example) and a bare
    one-command Typer app's `--help` and command, as subprocesses, interleaved, after one
    warm-up."""
    commands = {
        "mcpgen_help": [sys.executable, "-m", "mcpgen", "--help"],
        "mcpgen_validate": [
            sys.executable,
            "-m",
            "mcpgen",
            "validate",
            str(REPO / "examples" / "weather" / "mcpgen.yaml"),
        ],
        "typer_help": [sys.executable, str(REPO / "benchmarks" / "bare_typer.py"), "--help"],
        # Running a command (not --help) makes Typer coerce its parameters through pydantic:
        # the floor for `mcpgen validate`, which the target still measures against --help.
        "typer_run": [sys.executable, str(REPO / "benchmarks" / "bare_typer.py"), "--name", "x"],
        "python_floor": [sys.executable, "-c", "pass"],
    }
    names = list(commands)
    times: dict[str, list[float]] = {k: [] for k in commands}
    for i in range(reps + 1):
        shift = i % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            done = subprocess.run(commands[name], cwd=REPO, capture_output=True, check=False)
            if i:
                times[name].append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(commands[name])} failed:\n{done.stderr.decode()}")
    return times
