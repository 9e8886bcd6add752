"""The server's entry point, the same in every project: command line, environment, transports.

The project's `server.py` holds what the manifest says (name, version, instructions,
environment variables) in a `ServerInfo` and passes it here with its dispatcher.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp.server.lowlevel.server import Server

from .catalog import Catalog
from .context import handshake_era_api, input_required_results
from .errors import ErrorPolicy, Redactor, redact_logs
from .http_options import add_http_arguments, http_options
from .limits import DEFAULT_TIMEOUT, DEFAULT_WORKERS, WorkerPool
from .request_state import (
    DEFAULT_STATE_TTL,
    STATE_SECRET_ENV,
    StateSecretError,
    boundary,
    state_security,
)
from .results import DEFAULT_MAX_RESULT_BYTES
from .runtime import CallPolicy, Dispatcher
from .stdio_fast_path import FastPath
from .stdio_transport import claimed_stdio, serve_fds

DEBUG_ENV = "MCP_SERVER_DEBUG"


@dataclass(frozen=True)
class ServerInfo:
    """What the manifest says about the server itself."""

    name: str
    version: str
    script: str
    description: str
    instructions: str | None = None
    # Variables the manifest marks as required and gives no default: (name, description).
    required_env: tuple[tuple[str, str], ...] = ()
    # Defaults the manifest gives, applied when the variable is unset.
    env_defaults: Mapping[str, str] = field(default_factory=dict)
    # Variables whose values never appear in a reply or a log line.
    secret_env: tuple[str, ...] = ()
    env: tuple[str, ...] = ()  # every variable the manifest lists, for `Context.env`
    debug: bool = False  # the manifest's `debug`: full exception messages to the client
    timeout: float | None = None  # the manifest's default per-call timeout
    catalog: Catalog | None = None  # resources, templates and prompts, if any


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


async def serve_stdio(info: ServerInfo, dispatcher: Dispatcher, max_line: int) -> None:
    """Serve newline-delimited JSON-RPC on stdin/stdout until stdin closes."""
    server = build_server(info, dispatcher)
    with claimed_stdio() as (read_fd, write_fd):
        await serve_fds(server, read_fd, write_fd, FastPath(dispatcher, server), max_line)


def serve_http(info: ServerInfo, dispatcher: Dispatcher, args: argparse.Namespace) -> None:
    """Serve Streamable HTTP at http://HOST:PORT/PATH, protected on every bind (see `http`)."""
    from . import http  # noqa: PLC0415  (kept off the stdio start-up path)

    options = http_options(args)
    server = build_server(info, dispatcher)
    app = http.build_app(server, options, dispatcher.tool_scopes, dispatcher=dispatcher)
    http.serve(app, options)


def apply_environment_defaults(defaults: Mapping[str, str]) -> None:
    for name, default in defaults.items():
        os.environ.setdefault(name, default)


def missing_environment(required: Sequence[tuple[str, str]]) -> list[str]:
    """Required variables that are unset or empty, described for the error message."""
    return [
        f"{name} ({description})" if description else name
        for name, description in required
        if not os.environ.get(name)
    ]


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


def parse_args(info: ServerInfo, argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=info.script, description=info.description)
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP only (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP only (default: %(default)s)")
    parser.add_argument("--path", default="/mcp", help="HTTP only (default: %(default)s)")
    parser.add_argument("--log-level", default="WARNING", help="stderr log level")
    parser.add_argument(
        "--debug",
        action="store_true",
        default=None,
        help=f"send unexpected exceptions' messages to the client (also {DEBUG_ENV}=1)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds a call may run, for tools without their own `timeout`; 0: no limit "
        f"(default: the manifest's `timeout`, else {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help="threads for sync handlers; calls beyond are refused (default: %(default)s)",
    )
    parser.add_argument(
        "--max-result-bytes",
        type=int,
        default=DEFAULT_MAX_RESULT_BYTES,
        help="larger tool results become error results; 0: no limit (default: %(default)s)",
    )
    parser.add_argument(
        "--state-secret-env",
        metavar="VAR",
        default=None,
        help="environment variable holding the secret (>= 32 bytes) that seals the request "
        "state of questions to the client; instances behind one address must share it "
        f"(default: {STATE_SECRET_ENV} if set, else a random key per process)",
    )
    parser.add_argument(
        "--state-ttl",
        type=float,
        default=DEFAULT_STATE_TTL,
        help="seconds a client has to answer a question before its state expires "
        "(default: %(default)g)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {info.version}")
    add_http_arguments(parser)
    return parser.parse_args(argv)


def main(info: ServerInfo, dispatcher: Dispatcher, argv: Sequence[str] | None = None) -> None:
    """Console script entry point."""
    args = parse_args(info, argv)
    # Logs go to stderr: on stdio, stdout carries the protocol.
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr)
    apply_environment_defaults(info.env_defaults)
    missing = missing_environment(info.required_env)
    if missing:
        sys.exit(f"{info.name}: missing required environment variables: {', '.join(missing)}")
    try:
        dispatcher.policy = call_policy(info, args)
    except StateSecretError as exc:
        sys.exit(f"{info.name}: {exc}")
    redact_logs(dispatcher.policy.errors.redactor)
    try:
        if args.transport == "http":
            serve_http(info, dispatcher, args)
        else:
            anyio.run(serve_stdio, info, dispatcher, args.max_body_bytes)
    except KeyboardInterrupt:
        pass
