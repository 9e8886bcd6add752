# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The HTTP transport's settings, read from the command line (cheap to import: no SDK code)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from types import SimpleNamespace

from ..core.defaults import DEFAULT_MAX_BODY_BYTES


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


def http_options(args: SimpleNamespace) -> HttpOptions:
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


def _oauth_options(args: SimpleNamespace) -> OAuthOptions:
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
