# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Serving, the same in every project: the call policy from the command line, then a transport.

The project's `server.py` holds what the manifest says (name, version, instructions,
environment variables) in a `ServerInfo` and passes it here with its dispatcher. On stdio,
the project's console script starts in `console` instead, whose opening answers a client's
first requests while this module, the SDK and the project's server load, then hands over to
`run`. Each transport is imported when it is served: a stdio server never loads the HTTP
stack, nor an HTTP server the stdio transport.
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server.lowlevel.server import Server

from ..core.defaults import DEBUG_ENV, DEFAULT_TIMEOUT
from ..core.errors import ErrorPolicy, Redactor, redact_logs
from ..core.limits import WorkerPool
from ..core.server_info import ServerInfo
from ..core.state_secret import StateSecretError
from ..core.task_support import runs_tasks
from ..core.tool_filter import from_args
from ..core.unchanging_lists import unchanging_lists
from ..dispatch.context import handshake_era_api, input_required_results
from ..dispatch.dispatcher import CallPolicy, Dispatcher
from ..dispatch.request_state import boundary, state_security
from ..dispatch.telemetry import TELEMETRY
from ..dispatch.telemetry import configure as configure_telemetry
from .command_line import prepare

if TYPE_CHECKING:
    from ..stdio.opening import Handover


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
    if TELEMETRY.metrics is not None:  # `--metrics`: the SDK's requests counted too
        server.middleware.append(TELEMETRY.metrics.middleware)
    if runs_tasks(dispatcher.published):
        from ..dispatch.task_calls import TaskCalls  # noqa: PLC0415  (a server with tasks)

        TaskCalls(dispatcher).install(server)  # innermost: it sees the verified state
    if "on_subscriptions_listen" in offered:
        unchanging_lists(server)
    return server


async def serve_stdio(
    info: ServerInfo,
    dispatcher: Dispatcher,
    max_line: int,
    fds: tuple[int, int] | None = None,
    opening: Handover | None = None,
) -> None:
    """Serve newline-delimited JSON-RPC on stdin/stdout until stdin closes.

    `fds`: the protocol's descriptors, claimed already (else stdin and stdout are claimed
    here); `opening`: what `stdio.opening` answered before, for the SDK's session to take over.
    """
    from ..stdio.claim import claimed_stdio  # noqa: PLC0415  (the stdio transport, when served)
    from ..stdio.fast_path import FastPath  # noqa: PLC0415
    from ..stdio.transport import serve_fds  # noqa: PLC0415

    server = build_server(info, dispatcher)
    fast = FastPath(dispatcher, server)
    if fds is not None:
        await serve_fds(server, *fds, fast, max_line, opening=opening)
        return
    with claimed_stdio() as (read_fd, write_fd):
        await serve_fds(server, read_fd, write_fd, fast, max_line, opening=opening)


def serve_http(info: ServerInfo, dispatcher: Dispatcher, args: SimpleNamespace) -> None:
    """Serve Streamable HTTP at http://HOST:PORT/PATH, protected on every bind (see `http`)."""
    from ..http import transport as http  # noqa: PLC0415  (kept off the stdio start-up path)
    from ..http.options import http_options  # noqa: PLC0415

    options = http_options(args)
    server = build_server(info, dispatcher)
    app = http.build_app(server, options, dispatcher.tool_scopes, dispatcher=dispatcher)
    http.serve(app, options)


def call_policy(info: ServerInfo, args: SimpleNamespace) -> CallPolicy:
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
        secret_headers=info.secret_headers,
        state=state_security(args.state_secret_env, args.state_ttl),
        tool_filter=from_args(args),
        max_result_chars=args.max_result_chars,
    )


def warm_up() -> None:
    """Import what serving needs beyond the server's modules, on the warm-up's worker thread
    rather than after the hand-over: anyio imports its event loop backend on first use."""
    with contextlib.suppress(ImportError):
        importlib.import_module("anyio._backends._asyncio")


def main(info: ServerInfo, dispatcher: Dispatcher, argv: Sequence[str] | None = None) -> None:
    """Entry point of a server whose dispatcher is loaded already (the SDK with it)."""
    run(info, dispatcher, prepare(info, argv))


def run(
    info: ServerInfo,
    dispatcher: Dispatcher,
    args: SimpleNamespace,
    fds: tuple[int, int] | None = None,
    opening: Handover | None = None,
) -> None:
    """Serve with the command line's `args` (see `serve_stdio` for `fds` and `opening`)."""
    try:
        dispatcher.policy = call_policy(info, args)
    except StateSecretError as exc:
        raise SystemExit(f"{info.name}: {exc}") from None
    redact_logs(dispatcher.policy.errors.redactor)
    metrics = args.transport == "http" and getattr(args, "metrics", False)
    configure_telemetry(info.name, metrics=metrics)
    try:
        if args.transport == "http":
            serve_http(info, dispatcher, args)
        else:
            anyio.run(serve_stdio, info, dispatcher, args.max_body_bytes, fds, opening)
    except KeyboardInterrupt:
        pass
