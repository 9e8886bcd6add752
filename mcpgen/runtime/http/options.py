"""The HTTP transport's settings and command-line flags (cheap to import: no SDK server code)."""

from __future__ import annotations

import argparse
import ipaddress
import math
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
# The largest values a flag takes: beyond them a number is a typo, not a setting.
MAX_SECONDS = 365 * 24 * 3600.0
MAX_BYTES = 1 << 40
MAX_COUNT = 1_000_000


@dataclass(frozen=True)
class OAuthOptions:
    """OAuth 2.1 resource-server mode: JWTs signed by a key of the issuer's JWKS."""

    issuer: str
    audience: str
    resource_url: str
    jwks_url: str | None = None
    jwks_file: str | None = None
    leeway: float = 30.0


class RefusedToStart(SystemExit):
    """A configuration the server will not serve; the message is the one line printed."""


@dataclass(frozen=True)
class HttpOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    path: str = "/mcp"
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    auth_token_env: str | None = None
    oauth: OAuthOptions | None = None
    allow_unauthenticated: bool = False
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    read_timeout: float = 30.0
    header_timeout: float = 10.0
    idle_timeout: float = 5.0
    stateless: bool = False
    json_response: bool = False
    max_sessions: int = 1000
    max_sessions_per_client: int = 50
    session_idle_timeout: float = 600.0
    shutdown_grace: float = 30.0
    forwarded_allow_ips: str | None = None


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


def http_options(args: argparse.Namespace) -> HttpOptions:
    oauth = None
    if args.oauth_issuer or args.oauth_jwks_url or args.oauth_jwks_file:
        oauth = _oauth_options(args)
    return HttpOptions(
        host=args.host,
        port=args.port,
        path="/" + args.path.lstrip("/"),  # `--path mcp` means /mcp
        allowed_hosts=tuple(args.allowed_host),
        allowed_origins=tuple(args.allowed_origin),
        auth_token_env=args.auth_token_env,
        oauth=oauth,
        allow_unauthenticated=args.allow_unauthenticated,
        max_body_bytes=args.max_body_bytes,
        read_timeout=args.read_timeout,
        header_timeout=args.header_timeout,
        idle_timeout=args.idle_timeout,
        stateless=args.stateless,
        json_response=args.json_response,
        max_sessions=args.max_sessions,
        max_sessions_per_client=args.max_sessions_per_client,
        session_idle_timeout=args.session_idle_timeout,
        shutdown_grace=args.shutdown_grace,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )


def _oauth_options(args: argparse.Namespace) -> OAuthOptions:
    if not (args.oauth_issuer and args.oauth_resource):
        raise RefusedToStart("OAuth mode needs --oauth-issuer and --oauth-resource")
    if bool(args.oauth_jwks_url) == bool(args.oauth_jwks_file):
        raise RefusedToStart("OAuth mode needs one of --oauth-jwks-url or --oauth-jwks-file")
    return OAuthOptions(
        issuer=args.oauth_issuer,
        audience=args.oauth_audience or args.oauth_resource,
        resource_url=args.oauth_resource,
        jwks_url=args.oauth_jwks_url,
        jwks_file=args.oauth_jwks_file,
    )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
