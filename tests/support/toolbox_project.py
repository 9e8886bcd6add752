"""The `toolbox` project: tools with tags, read-only hints and result-size limits, rendered
from its manifest with handlers written in, and run as a real server process.

Rendered into a folder and run with `PYTHONPATH` pointing at its `src` (no install): what
runs is exactly what `mcpgen generate` writes, under the interpreter running the tests.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcp import StdioServerParameters

from mcpgen.manifest import load_manifest
from mcpgen.render.plan import render_plan

MANIFEST = """\
name: toolbox
version: 0.1.0
description: Tools to filter and results to bound.
tools:
  - name: get_issue
    description: Read an issue.
    tags: [issues]
    annotations: {readOnlyHint: true}
    input_schema: {type: object}
  - name: create_issue
    description: Open an issue.
    tags: [issues]
    input_schema: {type: object}
  - name: list_repos
    description: List the repositories.
    tags: [repos, search]
    annotations: {readOnlyHint: true}
    input_schema: {type: object}
  - name: delete_repo
    description: Delete a repository.
    tags: [repos]
    annotations: {readOnlyHint: false, destructiveHint: true}
    input_schema: {type: object}
  - name: whoami
    description: The caller, read from the request context.
    annotations: {readOnlyHint: true}
    input_schema: {type: object}
  - name: long_text
    description: N characters of text.
    input_schema: {type: object, properties: {n: {type: integer, minimum: 0}}, required: [n]}
  - name: long_text_ctx
    description: N characters of text, from a handler that takes the context.
    input_schema: {type: object, properties: {n: {type: integer, minimum: 0}}, required: [n]}
  - name: capped
    description: N characters of text, under the tool's own limit.
    max_result_chars: 50
    input_schema: {type: object, properties: {n: {type: integer, minimum: 0}}, required: [n]}
  - name: report
    description: A structured result with a body of N characters.
    input_schema: {type: object, properties: {n: {type: integer, minimum: 0}}, required: [n]}
    output_schema: {type: object, properties: {body: {type: string}}, required: [body]}
"""

# Handlers by tool: a context-free one is answered on the fast paths, one taking a
# `Context` always goes through the SDK.
_NAMED = """
from toolbox._generated.models import {model}


def {name}(args: {model}) -> str:
    return "{name} ran"
"""
_CONTEXT = """
from toolbox._generated import Context
from toolbox._generated.models import {model}


def {name}(args: {model}, ctx: Context) -> str:
    return {body}
"""
_SIZED = """
from toolbox._generated.models import {model}


def {name}(args: {model}) -> str:
    return "y" * args.n
"""
_REPORT = """
from toolbox._generated.models import ReportInput, ReportOutput


def report(args: ReportInput) -> ReportOutput:
    return ReportOutput(body="r" * args.n)
"""
HANDLERS = {
    "get_issue": _NAMED.format(name="get_issue", model="GetIssueInput"),
    "create_issue": _NAMED.format(name="create_issue", model="CreateIssueInput"),
    "list_repos": _NAMED.format(name="list_repos", model="ListReposInput"),
    "delete_repo": _NAMED.format(name="delete_repo", model="DeleteRepoInput"),
    "whoami": _CONTEXT.format(name="whoami", model="WhoamiInput", body='"whoami ran"'),
    "long_text": _SIZED.format(name="long_text", model="LongTextInput"),
    "long_text_ctx": _CONTEXT.format(
        name="long_text_ctx", model="LongTextCtxInput", body='"y" * args.n'
    ),
    "capped": _SIZED.format(name="capped", model="CappedInput"),
    "report": _REPORT,
}
FILTERED_TOOLS = ("get_issue", "create_issue", "list_repos", "delete_repo", "whoami")


def render_toolbox(root: Path) -> Path:
    """The project rendered under `root`, handlers written; its `src` folder."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    for planned in render_plan(load_manifest(root / "mcpgen.yaml")).files:
        target = root / planned.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(planned.content, encoding="utf-8")
    handlers = root / "src" / "toolbox" / "handlers"
    for name, code in HANDLERS.items():
        (handlers / f"{name}.py").write_text(code.lstrip(), encoding="utf-8")
    return root / "src"


def server_env(src: Path, *, fast_paths: bool = True) -> dict[str, str]:
    """The environment a toolbox server runs in; `fast_paths=False` sends every request
    through the SDK (`MCP_SERVER_FAST_PATHS=0`)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    if not fast_paths:
        env["MCP_SERVER_FAST_PATHS"] = "0"
    else:
        env.pop("MCP_SERVER_FAST_PATHS", None)
    return env


def server_command(*flags: str) -> list[str]:
    return [sys.executable, "-m", "toolbox", *flags]


def stdio_parameters(src: Path, *flags: str, fast_paths: bool = True) -> StdioServerParameters:
    """How the `mcp` client starts a toolbox server over stdio."""
    command, *args = server_command(*flags)
    return StdioServerParameters(
        command=command, args=args, env=server_env(src, fast_paths=fast_paths)
    )
