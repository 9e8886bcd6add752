"""OpenAPI benchmark: a server `mcpgen import openapi` generated from GitHub's published spec
next to FastMCP's `FastMCP.from_openapi` serving the same operations, both proxying to the
same local stub API over stdio; and the import itself, of every operation of that spec.

    python benchmarks/openapi.py [--quick] [--json FILE]

Needs the spec (`bash .ci/openapi-setup` puts `@octokit/openapi` into .test-npm/). Creates
under benchmarks/.work/openapi/: the full import, the benchmark project (OPERATIONS only),
a venv for the generated server (its declared dependencies, mcp 2.3.0) and one for FastMCP
(`fastmcp==4.2.3`, which is no dependency of mcpgen's), the stub's answers and the pruned
spec the reference reads. One run prints one table of ratios (generated / FastMCP, or
no-change generate / import), each the median of interleaved, paired repetitions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(REPO), str(BENCH)]

import server_bench as sb  # noqa: E402

from tests.support.schema_instances import valid_instance  # noqa: E402

WORK = sb.WORK / "openapi"
SPEC = REPO / ".test-npm/node_modules/@octokit/openapi/generated/api.github.com.json"
FULL = WORK / "github_full"
PROJECT = WORK / "github_bench"
VENV = WORK / "venv"
FASTMCP_VENV = WORK / "fastmcp-venv"
FASTMCP_PIN = "fastmcp==4.2.3"
SERVER_PIN = "mcp==2.3.0"
STUB_PORT = 18790
LOG = sb.LOGS / "openapi-mcpgen.log"  # the output of a failed mcpgen command
SNAPSHOT = WORK / "mcpgen-snapshot"
# What the servers publish; the first is the one the load figures call.
OPERATIONS = ("repos/get", "users/get-by-username", "issues/get", "issues/create")
CALLED = "repos/get"
CALL_ARGUMENTS = {"owner": "octocat", "repo": "hello-world"}
# (figure, "<=" or ">=", bound): generated / FastMCP, and no-change generate / import.
TARGETS = {
    "calls/s, 1 in flight": (">=", 1.5),
    "calls/s, 8 in flight": (">=", 1.5),
    "cold start to tools/list": ("<=", 0.7),
    "no-change generate / import": ("<=", 0.2),
}


def _settings(quick: bool) -> dict[str, int]:
    if quick:
        return {"imports": 1, "regens": 2, "cold": 2, "rounds": 2, "calls": 100, "piped": 200}
    return {"imports": 1, "regens": 5, "cold": 8, "rounds": 5, "calls": 400, "piped": 1000}


class CommandFailed(Exception):
    """An mcpgen command the benchmark times exited non-zero."""


def snapshot() -> Path:
    """mcpgen as committed at HEAD (its package and templates), copied to SNAPSHOT: the timed
    commands run from it, so a checkout that changes during a long run (a no-change generate
    is only one when mcpgen itself did not change) does not move the figures."""
    shutil.rmtree(SNAPSHOT, ignore_errors=True)
    SNAPSHOT.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", "HEAD", "mcpgen", "templates"], cwd=REPO, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(SNAPSHOT)], input=archive.stdout, check=True)
    return SNAPSHOT


def _mcpgen(*args: str) -> float:
    """Seconds one `mcpgen` command took (the CLI in a subprocess, as a user runs it), from
    the snapshot once there is one."""
    env = dict(os.environ)
    if SNAPSHOT.is_dir():
        env["PYTHONPATH"] = str(SNAPSHOT)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mcpgen", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=WORK,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        LOG.parent.mkdir(parents=True, exist_ok=True)
        LOG.write_text(f"mcpgen {' '.join(args)}\n{done.stdout}\n{done.stderr}", encoding="utf-8")
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise CommandFailed(
            f"mcpgen {args[0]} failed after {elapsed:.0f} s ({last[:200]}; see {LOG})"
        )
    return elapsed


def _operation_count() -> int:
    document = json.loads(SPEC.read_text(encoding="utf-8"))
    return sum(
        1 for item in document["paths"].values() for op in item.values() if isinstance(op, dict)
    )


# --- import + generate of the whole spec ------------------------------------------------------


def import_figures(imports: int, regens: int) -> dict[str, list[float]]:
    """Import of every operation (a new project, generated), then no-change generates."""
    out: dict[str, list[float]] = {"import": [], "regenerate": []}
    for _ in range(imports):
        shutil.rmtree(FULL, ignore_errors=True)
        out["import"].append(
            _mcpgen("import", "openapi", str(SPEC), "--dir", str(FULL), "--no-input", "--no-git")
        )
    _mcpgen("generate", str(FULL))  # the first no-change run records what later runs skip
    out["regenerate"] = [_mcpgen("generate", str(FULL)) for _ in range(regens)]
    return out


# --- the two servers ---------------------------------------------------------------------------


def _venv(root: Path, requirements: list[str]) -> Path:
    """A venv at `root` with `requirements`, re-made when that list changes; its python."""
    python = root / "bin" / "python"
    stamp = root / "bench-requirements.txt"
    wanted = "\n".join(requirements) + "\n"
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    shutil.rmtree(root, ignore_errors=True)
    print(f"creating {root.relative_to(REPO)} ({', '.join(requirements)}) ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True)
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    done = subprocess.run([*pip, *requirements], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"pip install failed:\n{done.stdout}\n{done.stderr}")
    stamp.write_text(wanted)
    return python


def _project_requirements() -> list[str]:
    document = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    deps = [d for d in document["project"]["dependencies"] if not d.startswith("mcp")]
    return [SERVER_PIN, *sorted(deps)]


def _package() -> str:
    return next(p.name for p in (PROJECT / "src").iterdir() if (p / "__init__.py").exists())


def make_project() -> None:
    """The benchmark project: OPERATIONS only, calling the stub."""
    shutil.rmtree(PROJECT, ignore_errors=True)
    _mcpgen(
        "import",
        "openapi",
        str(SPEC),
        "--dir",
        str(PROJECT),
        "--name",
        "github",
        "--include",
        ",".join(OPERATIONS),
        "--base-url",
        f"http://127.0.0.1:{STUB_PORT}",
        "--no-input",
        "--no-git",
    )


def _reachable(document: dict[str, Any], node: Any, found: set[str]) -> None:
    """Every `#/components/...` pointer reachable from `node`, into `found`."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/") and ref not in found:
            found.add(ref)
            _, _, kind, name = ref.split("/", 3)
            _reachable(document, document["components"][kind][name], found)
        for value in node.values():
            _reachable(document, value, found)
    elif isinstance(node, list):
        for value in node:
            _reachable(document, value, found)


def pruned_spec(names: dict[str, str]) -> Path:
    """The document with only OPERATIONS and the components they reach: all the reference
    needs to read at start-up (the generated server reads no spec at all)."""
    document = json.loads(SPEC.read_text(encoding="utf-8"))
    paths: dict[str, Any] = {}
    for path, item in document["paths"].items():
        kept = {
            m: op
            for m, op in item.items()
            if isinstance(op, dict) and op.get("operationId") in names
        }
        if kept:
            shared = {k: v for k, v in item.items() if k == "parameters"}
            paths[path] = {**shared, **kept}
    refs: set[str] = set()
    _reachable(document, paths, refs)
    components: dict[str, dict[str, Any]] = {}
    for ref in sorted(refs):
        _, _, kind, name = ref.split("/", 3)
        components.setdefault(kind, {})[name] = document["components"][kind][name]
    pruned = {**document, "paths": paths, "components": components}
    target = WORK / "github_pruned.json"
    target.write_text(json.dumps(pruned), encoding="utf-8")
    return target


def servers(names: dict[str, str]) -> dict[str, sb.ServerCmd]:
    """The generated server and the FastMCP reference, each from its own venv."""
    generated = _venv(VENV, _project_requirements())
    reference = _venv(FASTMCP_VENV, [FASTMCP_PIN])
    names_file = WORK / "names.json"
    names_file.write_text(json.dumps(names), encoding="utf-8")
    stub_url = f"http://127.0.0.1:{STUB_PORT}"
    return {
        "generated": sb.ServerCmd(
            "openapi-generated",
            [str(generated), "-m", _package()],
            {"PYTHONPATH": str(PROJECT / "src")},
        ),
        "fastmcp": sb.ServerCmd(
            "openapi-fastmcp",
            [
                str(reference),
                str(BENCH / "openapi_fastmcp.py"),
                str(pruned_spec(names)),
                stub_url,
                str(names_file),
            ],
        ),
    }


def _listed(cmd: sb.ServerCmd) -> list[dict[str, Any]]:
    session = sb.RawSession(cmd)
    try:
        session.initialize()
        tools: list[dict[str, Any]] = session.request("tools/list", {})["tools"]
        return tools
    finally:
        session.close()


def tool_names() -> dict[str, str]:
    """operationId -> the generated server's tool name, read through mcpgen's own manifest
    loader (a bound tool's binding names its method and path)."""
    from mcpgen import load_manifest

    document = json.loads(SPEC.read_text(encoding="utf-8"))
    ids = {
        (method.upper(), path): op["operationId"]
        for path, item in document["paths"].items()
        for method, op in item.items()
        if isinstance(op, dict) and "operationId" in op
    }
    manifest = load_manifest(PROJECT / "mcpgen.yaml")
    return {
        ids[(t.binding["method"], t.binding["path"])]: t.name
        for t in manifest.tools
        if isinstance(t.binding, dict)
    }


def stub_answers(generated: sb.ServerCmd) -> dict[str, Any]:
    """A fixed JSON answer per operation, valid for the generated tool's outputSchema: the
    spec's own example where it is valid, else the smallest valid instance."""
    from jsonschema import Draft202012Validator

    document = json.loads(SPEC.read_text(encoding="utf-8"))
    schemas = {t["name"]: t.get("outputSchema") for t in _listed(generated)}
    answers: dict[str, Any] = {}
    for path, item in document["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict) or op.get("operationId") not in OPERATIONS:
                continue
            name = NAMES[op["operationId"]]
            schema = schemas[name] or {"type": "object"}
            example = _example(document, op)
            valid = example is not None and Draft202012Validator(schema).is_valid(example)
            answers[f"{method.upper()} {path}"] = example if valid else valid_instance(schema)
    return answers


def _local(document: dict[str, Any], node: dict[str, Any], kind: str) -> dict[str, Any]:
    """`node`, or the component its `$ref` names."""
    if "$ref" in node:
        found: dict[str, Any] = document["components"][kind][node["$ref"].rsplit("/", 1)[1]]
        return found
    return node


def _example(document: dict[str, Any], op: dict[str, Any]) -> Any:
    """The first example of the operation's first 2xx JSON answer, if the spec gives one."""
    for status, answer in op["responses"].items():
        if not status.startswith("2"):
            continue
        content = _local(document, answer, "responses").get("content", {})
        for example in content.get("application/json", {}).get("examples", {}).values():
            return _local(document, example, "examples").get("value")
    return None


NAMES: dict[str, str] = {}


# --- the stub --------------------------------------------------------------------------------


class Stub:
    """`openapi_stub.py` running in the generated server's venv (uvicorn is in it)."""

    def __init__(self, python: Path, answers: dict[str, Any]) -> None:
        answers_file = WORK / "stub-answers.json"
        answers_file.write_text(json.dumps(answers), encoding="utf-8")
        sb.LOGS.mkdir(parents=True, exist_ok=True)
        self.log = open(sb.LOGS / "openapi-stub.log", "ab")
        script = [str(python), str(BENCH / "openapi_stub.py"), str(answers_file)]
        self.proc = subprocess.Popen(
            [*script, "--port", str(STUB_PORT)],
            stdout=self.log,
            stderr=self.log,
        )
        sb_wait_for_port(STUB_PORT, self.proc)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.log.close()


def sb_wait_for_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    import socket

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the stub exited with {proc.returncode} (see {sb.LOGS})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"the stub did not listen on {port}")


# --- load ------------------------------------------------------------------------------------


def same_answers(cmds: dict[str, sb.ServerCmd]) -> dict[str, Any]:
    """Both servers answer the benchmark call, without error and with the same data."""
    answers = {}
    for name, cmd in cmds.items():
        session = sb.RawSession(cmd)
        try:
            session.initialize()
            result = session.call(NAMES[CALLED], CALL_ARGUMENTS)
        finally:
            session.close()
        if result.get("isError"):
            raise SystemExit(f"{name} answered isError: {json.dumps(result)[:1500]}")
        answers[name] = result.get("structuredContent")
    return answers


def load(cmds: dict[str, sb.ServerCmd], rounds: int, calls: int, piped: int) -> dict[str, Any]:
    """Per round, in rotated order: `calls` calls one at a time, then `piped` kept 8 in
    flight (calls/s each)."""
    sessions = {n: sb.RawSession(c) for n, c in cmds.items()}
    out: dict[str, dict[str, list[float]]] = {n: {"rate1": [], "rate8": []} for n in sessions}
    tool = NAMES[CALLED]
    try:
        for session in sessions.values():
            session.initialize()
            session.pipelined(tool, CALL_ARGUMENTS, 30, depth=1)  # warm-up
        for i in range(rounds):
            for name in sb._order(list(sessions), i):
                session = sessions[name]
                start = time.perf_counter()
                session.pipelined(tool, CALL_ARGUMENTS, calls, depth=1)
                out[name]["rate1"].append(calls / (time.perf_counter() - start))
                start = time.perf_counter()
                session.pipelined(tool, CALL_ARGUMENTS, piped, depth=8)
                out[name]["rate8"].append(piped / (time.perf_counter() - start))
        return out
    finally:
        for session in sessions.values():
            session.close()


# --- the table -------------------------------------------------------------------------------


def _paired(a: list[float], b: list[float]) -> float:
    return statistics.median(x / y for x, y in zip(a, b, strict=True))


def _rows(figures: dict[str, Any]) -> list[tuple[str, float, float, float]]:
    """(figure, generated, reference, ratio) for each figure this run has."""
    load_, cold, gen = figures.get("load"), figures.get("cold"), figures.get("import")
    rows = []
    if load_ and cold:
        for rate, label in (("rate1", "calls/s, 1 in flight"), ("rate8", "calls/s, 8 in flight")):
            ours, theirs = load_["generated"][rate], load_["fastmcp"][rate]
            rows.append(
                (label, statistics.median(ours), statistics.median(theirs), _paired(ours, theirs))
            )
        ours, theirs = cold["generated"], cold["fastmcp"]
        rows.append(
            (
                "cold start to tools/list",
                statistics.median(ours) * 1000,
                statistics.median(theirs) * 1000,
                _paired(ours, theirs),
            )
        )
    if gen and gen["regenerate"]:
        regenerate, imported = (
            statistics.median(gen["regenerate"]),
            statistics.median(gen["import"]),
        )
        rows.append(("no-change generate / import", regenerate, imported, regenerate / imported))
    return rows


def table(figures: dict[str, Any]) -> str:
    """The table of ratios, one row per figure, with its target and whether it was met."""
    lines = [f"{'figure':30}{'generated':>14}{'reference':>14}{'ratio':>9}{'target':>10}  met"]
    for name, ours, theirs, ratio in _rows(figures):
        op, bound = TARGETS[name]
        met = ratio >= bound if op == ">=" else ratio <= bound
        lines.append(
            f"{name:30}{ours:14.1f}{theirs:14.1f}{ratio:9.2f}{op + ' ' + str(bound):>10}  "
            f"{'yes' if met else 'NO'}"
        )
    if failed := figures.get("import_failed"):
        lines.append(f"{'no-change generate / import':30}  not measured: {failed}")
    lines.append(
        "(calls/s: FastMCP is the reference; cold start in ms; the last row in s: a no-change "
        f"`mcpgen generate` against `mcpgen import openapi` of all {figures['operations']} "
        "operations, the reference)"
    )
    return "\n".join(lines)


def header(settings: dict[str, int]) -> str:
    load1 = os.getloadavg()[0]
    return (
        f"OpenAPI benchmark: {SPEC.name} (@octokit/openapi), python {platform.python_version()}, "
        f"{FASTMCP_PIN} vs the generated server ({SERVER_PIN}), load {load1:.2f}; "
        f"{settings['rounds']} rounds x {settings['calls']} + {settings['piped']} calls, "
        f"{settings['cold']} cold starts, {settings['imports']} imports, "
        f"{settings['regens']} no-change generates"
    )


def servers_part(settings: dict[str, int]) -> dict[str, Any]:
    """The two servers against the stub: same answers, cold start, load."""
    make_project()
    NAMES.update(tool_names())
    cmds = servers(NAMES)
    stub = Stub(VENV / "bin" / "python", stub_answers(cmds["generated"]))
    try:
        answers = same_answers(cmds)
        same = answers["generated"] == answers["fastmcp"]
        print(f"both servers answer {CALLED} without error; same data: {same}", flush=True)
        cold = sb.cold_start(cmds, settings["cold"])
        loaded = load(cmds, settings["rounds"], settings["calls"], settings["piped"])
    finally:
        stub.close()
    return {"load": loaded, "cold": cold, "same_data": same}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repetitions: a smoke test")
    parser.add_argument(
        "--part", choices=("all", "servers", "import"), default="all", help="run one half only"
    )
    parser.add_argument("--json", type=Path, help="write the raw figures here")
    options = parser.parse_args()
    if not SPEC.is_file():
        raise SystemExit(f"{SPEC} is missing: run `bash .ci/openapi-setup`")
    settings = _settings(options.quick)
    WORK.mkdir(parents=True, exist_ok=True)
    snapshot()
    print(header(settings), flush=True)
    figures: dict[str, Any] = {"operations": _operation_count()}
    if options.part in ("all", "servers"):
        figures.update(servers_part(settings))
        print(table(figures), flush=True)  # the servers' rows now; the import takes minutes
    if options.part in ("all", "import"):
        try:
            figures["import"] = import_figures(settings["imports"], settings["regens"])
        except CommandFailed as failed:
            figures["import_failed"] = str(failed)
        print(table(figures))
    if options.json:
        options.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
