"""`python fast_path_server.py SIDE CATALOG [PORT] [--json-response]`: the judged server.

SIDE is one of
- `sdk-stdio`: the SDK's own `stdio_server` running the server;
- `sdk-http`: the SDK's own stateless Streamable HTTP app under uvicorn on 127.0.0.1:PORT,
  with the allow-list and body limit mcpgen's HTTP server uses;
- `mcpgen-stdio`, `mcpgen-http`: the runtime's console entry, as a generated project's
  console script runs it (the opening, the byte pump and the fast paths included).

On `mcpgen-stdio`, loading the server waits until a byte (or the end) arrives on the
descriptor named by `HOLD_FD`: meanwhile only the opening can answer, so the judge knows
which answers are the opening's. The id of each request a fast path takes is appended to the
file named by `TOOK_FILE`, one JSON value a line.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from tests.differential.fast_path_tools import TOOLS, server_info

HOLD_FD = "FAST_PATH_JUDGE_HOLD_FD"
# "1": judge the fast paths under the installed SDK even where the contract does not accept
# it (`.ci/sdk-drift` asks whether a newer release could be accepted).
ASSUME_VERIFIED = "FAST_PATH_JUDGE_ASSUME_VERIFIED"
TOOK_FILE = "FAST_PATH_JUDGE_TOOK_FILE"
MAX_BODY_BYTES = 4 * 1024 * 1024  # mcpgen's default --max-body-bytes


def sdk_stdio(info: ServerInfo) -> None:
    import anyio
    from mcp.server.stdio import stdio_server

    from mcpgen.runtime.entry.serve import build_server

    async def serve() -> None:
        server = build_server(info, Dispatcher(TOOLS))
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(serve)


def sdk_http(info: ServerInfo, port: int, json_response: bool) -> None:
    import uvicorn

    from mcpgen.runtime.entry.serve import build_server
    from mcpgen.runtime.http.options import HttpOptions
    from mcpgen.runtime.http.transport import transport_security

    server = build_server(info, Dispatcher(TOOLS))
    app = server.streamable_http_app(
        stateless_http=True,
        json_response=json_response,
        transport_security=transport_security(HttpOptions(port=port)),
        max_request_body_size=MAX_BODY_BYTES,
        host="127.0.0.1",
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def mcpgen(info: ServerInfo, argv: list[str]) -> None:
    from mcpgen.runtime.entry import console

    if TOOK_FILE in os.environ:
        _record_fast_paths(os.environ[TOOK_FILE])
    hold = os.environ.get(HOLD_FD)

    def load() -> tuple[ServerInfo, Dispatcher]:
        if hold is not None:
            os.read(int(hold), 1)
        return info, Dispatcher(TOOLS)

    # As the generated `launch` module states it: the offers, not the catalog itself.
    console.main(replace(info, catalog=None), TOOLS, load, argv)


def _record_fast_paths(path: str) -> None:
    """Append the id of every request the stdio and HTTP fast paths take to `path`."""
    from mcpgen.runtime.http.fast_path import StatelessFastPath
    from mcpgen.runtime.stdio.fast_path import FastPath

    takes, answer = FastPath.takes, StatelessFastPath._answer

    def took(request_id: Any) -> None:
        with open(path, "a", encoding="utf-8") as record:
            record.write(json.dumps(request_id) + "\n")

    def taken(self: FastPath, request: Any) -> bool:
        if result := takes(self, request):
            took(request.id)
        return result

    async def answered(self: StatelessFastPath, message: Any, version: str, request: Any) -> str:
        took(message.id)
        return await answer(self, message, version, request)

    FastPath.takes = taken  # type: ignore[method-assign]
    StatelessFastPath._answer = answered  # type: ignore[method-assign]


def _assume_verified() -> None:
    """Make the contract accept the installed SDK as it is, before the fast paths read it."""
    from mcpgen.runtime.core import sdk_contract

    installed = sdk_contract.installed_sdk()
    numbers = sdk_contract.release_numbers(installed or "")
    protocols = sdk_contract.sdk_protocols()
    if numbers is None or protocols is None:
        raise SystemExit(f"cannot judge mcp {installed}: its release or versions are unreadable")
    sdk_contract.VERIFIED_SDK = sdk_contract.Releases(numbers, (*numbers[:-1], numbers[-1] + 1))
    sdk_contract.VERIFIED_PROTOCOLS = protocols


def main(side: str, catalog: str, *rest: str) -> None:
    if os.environ.get(ASSUME_VERIFIED) == "1":
        _assume_verified()
    info = server_info(catalog)
    json_response = "--json-response" in rest
    port = [r for r in rest if r.isdigit()]
    if side == "sdk-stdio":
        sdk_stdio(info)
    elif side == "sdk-http":
        sdk_http(info, int(port[0]), json_response)
    elif side == "mcpgen-stdio":
        mcpgen(info, [])
    elif side == "mcpgen-http":
        argv = ["--transport", "http", "--stateless", "--port", port[0]]
        mcpgen(info, argv + (["--json-response"] if json_response else []))
    else:
        raise SystemExit(f"unknown side {side!r}")


if __name__ == "__main__":
    main(*sys.argv[1:])
