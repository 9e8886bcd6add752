"""The server's entry point, the same in every project: command line, environment, transports.

The project's `server.py` holds what the manifest says (name, version, instructions,
environment variables) in a `ServerInfo` and passes it here with its dispatcher. On stdio,
the project's console script starts in `boot` instead, which answers a client's opening
requests while this module, the SDK and the project's server load, then hands over to `run`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
from collections.abc import Sequence
from typing import Any

import anyio
from mcp.server.lowlevel.server import Server

from .boot import DEBUG_ENV, DEFAULT_TIMEOUT, Rest, StateSecretError, claimed_stdio, prepare
from .boot import ServerInfo as ServerInfo  # noqa: PLC0414  (re-exported for callers)
from .context import handshake_era_api, input_required_results
from .errors import ErrorPolicy, Redactor, redact_logs
from .http_options import http_options
from .limits import WorkerPool
from .request_state import boundary, state_security
from .runtime import CallPolicy, Dispatcher
from .stdio_fast_path import FastPath
from .stdio_transport import serve_fds


def build_server(info: ServerInfo, dispatcher: Dispatcher) -> Server[Any]:
    """A fresh low-level server bound to the tool table (one per connection in tests)."""
    offered = {} if info.catalog is None else info.catalog.server_handlers(dispatcher)
    with handshake_era_api():
        server: Server[Any] = Server(
            info.name,
            version=info.version,
            instructions=info.instructions,
            get_tool_input_schema=dispatcher.input_schema,
            on_list_tools=dispatcher.list_tools,
            on_call_tool=dispatcher.call_tool,
            on_set_logging_level=dispatcher.log_levels.set_level,
            **offered,
        )
    # Outermost first: the state is verified before anything reads it, and sealed last.
    server.middleware.append(boundary(dispatcher.policy.state, info.name))
    server.middleware.append(input_required_results)
    server.middleware.append(dispatcher.publish_definitions)
    return server


async def serve_stdio(
    info: ServerInfo,
    dispatcher: Dispatcher,
    max_line: int,
    fds: tuple[int, int] | None = None,
    opening: Rest | None = None,
) -> None:
    """Serve newline-delimited JSON-RPC on stdin/stdout until stdin closes.

    `fds`: the protocol's descriptors, claimed already (else stdin and stdout are claimed
    here); `opening`: what `boot` answered before, for the SDK's session to take over.
    """
    server = build_server(info, dispatcher)
    fast = FastPath(dispatcher, server)
    if fds is not None:
        await serve_fds(server, *fds, fast, max_line, opening=opening)
        return
    with claimed_stdio() as (read_fd, write_fd):
        await serve_fds(server, read_fd, write_fd, fast, max_line, opening=opening)


def serve_http(info: ServerInfo, dispatcher: Dispatcher, args: argparse.Namespace) -> None:
    """Serve Streamable HTTP at http://HOST:PORT/PATH, protected on every bind (see `http`)."""
    from . import http  # noqa: PLC0415  (kept off the stdio start-up path)

    options = http_options(args)
    server = build_server(info, dispatcher)
    app = http.build_app(server, options, dispatcher.tool_scopes, dispatcher=dispatcher)
    http.serve(app, options)


def call_policy(info: ServerInfo, args: argparse.Namespace) -> CallPolicy:
    """The dispatcher's limits and error wording from the manifest, the environment and flags."""
    debug = args.debug or info.debug or os.environ.get(DEBUG_ENV, "") not in ("", "0")
    errors = ErrorPolicy(debug=debug, redactor=Redactor.from_environment(info.secret_env))
    timeout = args.timeout if args.timeout is not None else (info.timeout or DEFAULT_TIMEOUT)
    return CallPolicy(
        errors=errors,
        max_result_bytes=args.max_result_bytes,
        default_timeout=timeout or None,
        workers=WorkerPool(args.workers),
        env_names=info.env,
        state=state_security(args.state_secret_env, args.state_ttl),
    )


def warm_up() -> None:
    """Import what serving needs beyond the server's modules, on `boot`'s worker thread
    rather than after the hand-over: anyio imports its event loop backend on first use."""
    with contextlib.suppress(ImportError):
        importlib.import_module("anyio._backends._asyncio")


def main(info: ServerInfo, dispatcher: Dispatcher, argv: Sequence[str] | None = None) -> None:
    """Entry point of a server whose dispatcher is loaded already (the SDK with it)."""
    run(info, dispatcher, prepare(info, argv))


def run(
    info: ServerInfo,
    dispatcher: Dispatcher,
    args: argparse.Namespace,
    fds: tuple[int, int] | None = None,
    opening: Rest | None = None,
) -> None:
    """Serve with the command line's `args` (see `serve_stdio` for `fds` and `opening`)."""
    try:
        dispatcher.policy = call_policy(info, args)
    except StateSecretError as exc:
        raise SystemExit(f"{info.name}: {exc}") from None
    redact_logs(dispatcher.policy.errors.redactor)
    try:
        if args.transport == "http":
            serve_http(info, dispatcher, args)
        else:
            anyio.run(serve_stdio, info, dispatcher, args.max_body_bytes, fds, opening)
    except KeyboardInterrupt:
        pass
