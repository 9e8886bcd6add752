"""The server's command line, logging and environment, checked before anything heavy loads.

Standard library only: on stdio, the console entry parses the command line and starts
answering before the SDK is imported.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from typing import NoReturn

from ..core.defaults import (
    DEBUG_ENV,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_RESULT_BYTES,
    DEFAULT_TIMEOUT,
    DEFAULT_WORKERS,
)
from ..core.errors import Redactor, redact_logs
from ..core.server_info import ServerInfo
from ..core.state_secret import DEFAULT_STATE_TTL, STATE_SECRET_ENV, StateSecretError, state_secret
from .flag_types import MAX_BYTES, seconds, whole

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_WORKERS = 4096


class OneLineParser(argparse.ArgumentParser):
    """A mistaken command line is one line on stderr and exit status 2: the usage summary
    argparse prints first would bury it (`--help` still shows it)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def parse_args(info: ServerInfo, argv: Sequence[str] | None) -> argparse.Namespace:
    parser = OneLineParser(prog=info.script, description=info.description)
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP only (default: %(default)s)")
    parser.add_argument(
        "--port", type=whole(1, 65535), default=8000, help="HTTP only (default: %(default)s)"
    )
    parser.add_argument("--path", default="/mcp", help="HTTP only (default: %(default)s)")
    parser.add_argument(
        "--log-level",
        type=str.upper,
        choices=LOG_LEVELS,
        default="WARNING",
        help="stderr log level, one of %(choices)s (default: %(default)s)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=None,
        help=f"send unexpected exceptions' messages to the client (also {DEBUG_ENV}=1)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds(zero=True),
        default=None,
        help="seconds a call may run, for tools without their own `timeout`; 0: no limit "
        f"(default: the manifest's `timeout`, else {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--workers",
        type=whole(1, MAX_WORKERS),
        default=DEFAULT_WORKERS,
        help="threads for sync handlers; calls beyond are refused (default: %(default)s)",
    )
    parser.add_argument(
        "--max-result-bytes",
        type=whole(0, MAX_BYTES),
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
        type=seconds(),
        default=DEFAULT_STATE_TTL,
        help="seconds a client has to answer a question before its state expires "
        "(default: %(default)g)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {info.version}")
    add_http_arguments(parser)
    return parser.parse_args(argv)


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


def prepare(info: ServerInfo, argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, logging and the environment; exits when the server cannot start."""
    args = parse_args(info, argv)
    # Logs go to stderr: on stdio, stdout carries the protocol.
    logging.basicConfig(level=args.log_level, stream=sys.stderr)
    apply_environment_defaults(info.env_defaults)
    missing = missing_environment(info.required_env)
    if missing:
        sys.exit(f"{info.name}: missing required environment variables: {', '.join(missing)}")
    try:
        state_secret(args.state_secret_env)
    except StateSecretError as exc:
        sys.exit(f"{info.name}: {exc}")
    redact_logs(Redactor.from_environment(info.secret_env))
    return args


def add_http_arguments(parser: argparse.ArgumentParser) -> None:
    """The HTTP transport's flags (ignored on stdio)."""
    group = parser.add_argument_group("HTTP transport (see docs on security)")
    add = group.add_argument
    add(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help="Host header to accept, repeatable (default: the loopback names and the bind address)",
    )
    add(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="Origin header to accept, repeatable (default: http(s) origins of the allowed hosts)",
    )
    add(
        "--auth-token-env",
        metavar="VAR",
        help="require `Authorization: Bearer <value of VAR>` on every request",
    )
    add("--oauth-issuer", metavar="URL", help="OAuth 2.1 resource server: the token issuer (iss)")
    add(
        "--oauth-audience",
        metavar="AUD",
        help="the audience (aud) tokens must carry (default: --oauth-resource)",
    )
    add("--oauth-resource", metavar="URL", help="this server's public URL, for RFC 9728 metadata")
    add("--oauth-jwks-url", metavar="URL", help="the issuer's JWKS, fetched and cached")
    add("--oauth-jwks-file", metavar="PATH", help="the issuer's JWKS, read from a file")
    add(
        "--allow-unauthenticated",
        action="store_true",
        help="serve a non-loopback bind without authentication (behind a proxy that checks)",
    )
    add(
        "--max-body-bytes",
        type=whole(1, MAX_BYTES),
        default=DEFAULT_MAX_BODY_BYTES,
        help="larger request bodies get 413, longer stdio lines an error (default: %(default)s)",
    )
    add(
        "--read-timeout",
        type=seconds(),
        default=30.0,
        help="seconds to receive a request body before 408 (default: %(default)s)",
    )
    add(
        "--header-timeout",
        type=seconds(),
        default=10.0,
        help="seconds a connection has to send a request's line and headers before 408 and "
        "close (default: %(default)s)",
    )
    add(
        "--idle-timeout",
        type=seconds(),
        default=5.0,
        help="seconds an idle keep-alive connection stays open (default: %(default)s)",
    )
    add("--stateless", action="store_true", help="no sessions: every request stands alone")
    add("--json-response", action="store_true", help="answer POSTs with JSON, not SSE streams")
    add(
        "--max-sessions",
        type=whole(0),
        default=1000,
        help="open sessions in all; 0: no cap (default: %(default)s)",
    )
    add(
        "--max-sessions-per-client",
        type=whole(0),
        default=50,
        help="open sessions per client address; 0: no cap (default: %(default)s)",
    )
    add(
        "--session-idle-timeout",
        type=seconds(),
        default=600.0,
        help="seconds before an unused session is closed (default: %(default)s)",
    )
    add(
        "--shutdown-grace",
        type=seconds(zero=True),
        default=30.0,
        help="on SIGTERM/SIGINT, seconds in-flight calls get to finish (default: %(default)s)",
    )
    add(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="trust X-Forwarded-For/-Proto from these proxy addresses (comma-separated)",
    )
