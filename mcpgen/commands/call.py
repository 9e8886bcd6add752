"""`mcpgen call`: start the project's server from its own venv, call one tool over stdio with
the real SDK client, and hand back what it answered.

The server runs as `python -m <package>` from the project's `.venv` with `src/` first on the
path, so the working copy runs whether or not the project was installed editable; the
handshake and the error wording are those `mcpgen doctor` uses.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from mcpgen.errors import ExitCode, McpgenError
from mcpgen.hosts.doctor import STDERR_TAIL
from mcpgen.hosts.launch import Launch, current_os, gather_facts, venv_script
from mcpgen.manifest.model import Manifest


@dataclass(frozen=True)
class ToolAnswer:
    """What a call came back with: one JSON document, or the error to report."""

    document: str = ""
    error: str = ""

    @property
    def ok(self) -> bool:
        """Whether the tool answered without an error."""
        return not self.error


@dataclass(frozen=True)
class ListedTool:
    """A tool as tools/list names it."""

    name: str
    description: str


def project_launch(manifest: Manifest, root: Path, *args: str) -> tuple[Launch, dict[str, str]]:
    """The command that runs the project's server from its own venv, and its environment."""
    python, env = project_python(root)
    return Launch(python, ("-m", manifest.package, *args)), env


def project_python(root: Path) -> tuple[str, dict[str, str]]:
    """The project venv's interpreter, and an environment where `src/` comes first."""
    if not gather_facts(root).has_venv:
        raise McpgenError(
            f"no .venv in {root}: create it with `python -m venv .venv` and "
            "`.venv/bin/pip install -e .` (the server runs from the project's own venv)"
        )
    python = venv_script(root, "python", current_os())
    env = dict(os.environ)
    source = str(root / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    env.pop("PYTHONHOME", None)
    return python, env


def parse_arguments(text: str | None) -> dict[str, Any]:
    """`--args` as a JSON object; McpgenError (usage) with the place JSON stopped otherwise."""
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise McpgenError(
            f"--args is not valid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})",
            exit_code=ExitCode.USAGE,
        ) from None
    if not isinstance(value, dict):
        raise McpgenError(
            '--args must be a JSON object of the tool\'s arguments, like \'{"city": "Paris"}\'',
            exit_code=ExitCode.USAGE,
        )
    return value


def _document(result: Any) -> ToolAnswer:
    """structuredContent when the tool sent one, else its text as a JSON string."""
    texts = [block.text for block in result.content if getattr(block, "type", "") == "text"]
    if result.is_error:
        return ToolAnswer(error="\n".join(texts) or "the tool answered with an error")
    if result.structured_content is not None:
        return ToolAnswer(json.dumps(result.structured_content, ensure_ascii=False, indent=2))
    if texts or not result.content:
        return ToolAnswer(json.dumps("\n".join(texts), ensure_ascii=False))
    blocks = [block.model_dump(mode="json", by_alias=True) for block in result.content]
    return ToolAnswer(json.dumps(blocks, ensure_ascii=False, indent=2))


async def _session(
    launch: Launch, env: Mapping[str, str], errlog: Any, tool: str | None, arguments: Any
) -> ToolAnswer | list[ListedTool]:
    from mcp import Client, StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError

    params = StdioServerParameters(command=launch.command, args=list(launch.args), env=dict(env))
    async with Client(stdio_client(params, errlog=errlog)) as client:
        if tool is None:
            listed = (await client.list_tools()).tools
            return [ListedTool(t.name, (t.description or "").strip()) for t in listed]
        try:
            return _document(await client.call_tool(tool, arguments))
        except MCPError as exc:  # refused before any handler ran: an unknown tool
            return ToolAnswer(error=str(exc))


def talk_to_server(
    manifest: Manifest,
    root: Path,
    tool: str | None,
    arguments: Mapping[str, Any],
    timeout: float = 60.0,
) -> ToolAnswer | list[ListedTool]:
    """Call `tool` (or list the tools when None) on a fresh server process, then stop it."""
    launch, env = project_launch(manifest, root)

    async def run() -> ToolAnswer | list[ListedTool]:
        with anyio.fail_after(timeout):
            return await _session(launch, env, errlog, tool, dict(arguments))

    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as errlog:
        try:
            return anyio.run(run)
        except Exception as exc:  # the SDK raises many kinds; each becomes one message
            errlog.seek(0)
            tail = errlog.read()[-STDERR_TAIL:].strip()
            detail = f"; server stderr: {tail}" if tail else ""
            raise McpgenError(_failure(exc, timeout) + detail) from None


def _failure(exc: BaseException, timeout: float) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, TimeoutError):
        return f"the server did not answer within {timeout:g} s"
    text = str(exc) or type(exc).__name__
    if "Connection closed" in text:
        return "the server exited before answering"
    return f"the server could not be reached: {text}"
