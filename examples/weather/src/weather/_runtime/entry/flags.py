# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The server's flags as argparse reads them: loaded only for a command line that has some.

A host usually starts a server with no argument at all; `command_line` then takes the
defaults without building the parser, and argparse (a few hundred kB) is never loaded.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn

from ..core.defaults import (
    DEBUG_ENV,
    DEFAULT_TIMEOUT,
)
from ..core.server_info import ServerInfo
from ..core.state_secret import STATE_SECRET_ENV
from .flag_defaults import FLAG_DEFAULTS

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_WORKERS = 4096
# The largest values a flag takes: beyond them a number is a typo, not a setting.
MAX_SECONDS = 365 * 24 * 3600.0
MAX_BYTES = 1 << 40
MAX_COUNT = 1_000_000


def whole(minimum: int, maximum: int = MAX_COUNT) -> Callable[[str], int]:
    """An argparse `type`: a whole number from `minimum` to `maximum`."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if text.strip().isascii() else None
        except ValueError:
            value = None
        if value is None:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"{value} is not between {minimum} and {maximum}")
        return value

    return parse


def seconds(*, zero: bool = False) -> Callable[[str], float]:
    """An argparse `type`: a finite number of seconds, above 0 (or 0 too, when `zero`
    means something), up to `MAX_SECONDS`."""

    def parse(text: str) -> float:
        try:
            value = float(text) if text.strip().isascii() else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of seconds")
        if value < 0 or (value == 0 and not zero) or value > MAX_SECONDS:
            lowest = "0" if zero else "above 0"
            raise argparse.ArgumentTypeError(f"{value:g} is not from {lowest} to {MAX_SECONDS:.0f}")
        return value

    return parse


class OneLineParser(argparse.ArgumentParser):
    """A mistaken command line is one line on stderr and exit status 2: the usage summary
    argparse prints first would bury it (`--help` still shows it)."""

    def error(self, message: str) -> NoReturn:
        """Exit with `message` in one line."""
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def parser(info: ServerInfo) -> argparse.ArgumentParser:
    """The parser of the server's flags, with `--help`, `--version` and their defaults."""
    parser = OneLineParser(prog=info.script, description=info.description)
    parser.add_argument("--transport", choices=("stdio", "http"))
    parser.add_argument("--host", help="HTTP only (default: %(default)s)")
    parser.add_argument("--port", type=whole(1, 65535), help="HTTP only (default: %(default)s)")
    parser.add_argument("--path", help="HTTP only (default: %(default)s)")
    parser.add_argument(
        "--log-level",
        type=str.upper,
        choices=LOG_LEVELS,
        help="stderr log level, one of %(choices)s (default: %(default)s)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help=f"send unexpected exceptions' messages to the client (also {DEBUG_ENV}=1)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds(zero=True),
        help="seconds a call may run, for tools without their own `timeout`; 0: no limit "
        f"(default: the manifest's `timeout`, else {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--workers",
        type=whole(1, MAX_WORKERS),
        help="threads for sync handlers; calls beyond are refused (default: %(default)s)",
    )
    parser.add_argument(
        "--max-result-bytes",
        type=whole(0, MAX_BYTES),
        help="larger tool results become error results; 0: no limit (default: %(default)s)",
    )
    parser.add_argument(
        "--max-result-chars",
        type=whole(0, MAX_BYTES),
        help="longer text results are cut there, with a note; longer structured results "
        "(as JSON) become error results; 0: no limit (default: %(default)s, or the tool's "
        "`max_result_chars`)",
    )
    add_tool_filter_arguments(parser)
    parser.add_argument(
        "--state-secret-env",
        metavar="VAR",
        help="environment variable holding the secret (>= 32 bytes) that seals the request "
        "state of questions to the client; instances behind one address must share it "
        f"(default: {STATE_SECRET_ENV} if set, else a random key per process)",
    )
    parser.add_argument(
        "--state-ttl",
        type=seconds(),
        help="seconds a client has to answer a question before its state expires "
        "(default: %(default)g)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {info.version}")
    add_http_arguments(parser)
    parser.set_defaults(**FLAG_DEFAULTS)  # also what `--help` shows as each flag's default
    return parser


def add_tool_filter_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that choose which tools are served (see `core.tool_filter`)."""
    group = parser.add_argument_group(
        "tool filtering (over HTTP, X-MCP-Toolsets, X-MCP-Tools and X-MCP-Readonly: true "
        "narrow a request further)"
    )
    group.add_argument(
        "--toolsets",
        metavar="TAG,...",
        help="serve the tools tagged with one of these (with --tools: either)",
    )
    group.add_argument(
        "--tools", metavar="NAME,...", help="serve these tools (with --toolsets: either)"
    )
    group.add_argument(
        "--read-only",
        action="store_true",
        help="serve only the tools annotated readOnlyHint: true",
    )


def add_http_arguments(parser: argparse.ArgumentParser) -> None:
    """The HTTP transport's flags (ignored on stdio)."""
    group = parser.add_argument_group("HTTP transport (see docs on security)")
    add = group.add_argument
    add(
        "--allowed-host",
        action="append",
        metavar="HOST[:PORT]",
        help="Host header to accept, repeatable (default: the loopback names and the bind address)",
    )
    add(
        "--allowed-origin",
        action="append",
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
        help="larger request bodies get 413, longer stdio lines an error (default: %(default)s)",
    )
    add(
        "--read-timeout",
        type=seconds(),
        help="seconds to receive a request body before 408 (default: %(default)s)",
    )
    add(
        "--header-timeout",
        type=seconds(),
        help="seconds a connection has to send a request's line and headers before 408 and "
        "close (default: %(default)s)",
    )
    add(
        "--idle-timeout",
        type=seconds(),
        help="seconds an idle keep-alive connection stays open (default: %(default)s)",
    )
    add("--stateless", action="store_true", help="no sessions: every request stands alone")
    add("--json-response", action="store_true", help="answer POSTs with JSON, not SSE streams")
    add(
        "--metrics",
        action="store_true",
        help="serve Prometheus metrics at /metrics (needs the project's `otel` extra)",
    )
    add(
        "--max-sessions",
        type=whole(0),
        help="open sessions in all; 0: no cap (default: %(default)s)",
    )
    add(
        "--max-sessions-per-client",
        type=whole(0),
        help="open sessions per client address; 0: no cap (default: %(default)s)",
    )
    add(
        "--session-idle-timeout",
        type=seconds(),
        help="seconds before an unused session is closed (default: %(default)s)",
    )
    add(
        "--shutdown-grace",
        type=seconds(zero=True),
        help="on SIGTERM/SIGINT, seconds in-flight calls get to finish (default: %(default)s)",
    )
    add(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="trust X-Forwarded-For/-Proto from these proxy addresses (comma-separated)",
    )
