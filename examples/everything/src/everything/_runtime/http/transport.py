# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Streamable HTTP serving, safe on any bind: Host/Origin checks, authentication, limits,
health, graceful shutdown.

The SDK's `streamable_http_app` does the protocol, the Host/Origin allow-list, the bearer
middleware and RFC 9728 metadata; the `Gate` in front of it adds what the SDK lacks.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Mapping
from types import FrameType
from typing import Any

from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.routes import build_resource_metadata_url
from mcp.server.auth.settings import AuthSettings
from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route

from ..dispatch.dispatcher import Dispatcher
from ..dispatch.telemetry import METRICS_PATH, TELEMETRY
from .auth import JwtVerifier, StaticTokenVerifier
from .gate import Gate, GateLimits, ScopeCheck
from .options import HttpOptions, RefusedToStart, is_loopback

logger = logging.getLogger(__name__)

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def transport_security(options: HttpOptions) -> TransportSecuritySettings:
    """The Host/Origin allow-list, on for every bind (the SDK's default covers loopback only)."""
    names = [*LOOPBACK_HOSTS]
    if options.host not in ("0.0.0.0", "::", "") and options.host not in names:
        names.append(options.host)
    hosts: list[str] = []
    for name in [*names, *options.allowed_hosts]:
        bracketed = f"[{name}]" if ":" in name and not name.startswith("[") else name
        hosts += [name] if _has_port(name) else [bracketed, f"{bracketed}:*"]
    origins = list(options.allowed_origins)
    if not origins:
        origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


def _has_port(name: str) -> bool:
    host, _, port = name.rpartition(":")
    return bool(host) and port.isdigit() and (not host.count(":") or host.endswith("]"))


def authentication(
    options: HttpOptions, environ: Mapping[str, str]
) -> tuple[AuthSettings | None, TokenVerifier | None]:
    """The SDK's auth settings and verifier for the chosen mode (none, token or OAuth)."""
    if options.auth_token_env and options.oauth:
        raise RefusedToStart("choose one of --auth-token-env and OAuth mode, not both")
    if options.auth_token_env:
        token = environ.get(options.auth_token_env, "")
        if not token:
            raise RefusedToStart(
                f"--auth-token-env {options.auth_token_env}: the variable is empty"
            )
        # Static-token mode has no issuer and publishes no metadata; the SDK still wants a URL.
        settings = AuthSettings(issuer_url="http://127.0.0.1/", resource_server_url=None)
        return settings, StaticTokenVerifier(token)
    if options.oauth:
        oauth = options.oauth
        try:
            verifier = JwtVerifier(oauth)
        except ImportError:
            raise RefusedToStart(
                "OAuth mode needs PyJWT with cryptography: pip install 'pyjwt[crypto]'"
            ) from None
        settings = AuthSettings(
            issuer_url=oauth.issuer,
            resource_server_url=oauth.resource_url,
            # The verifier checks `aud` itself.
            validate_token_resource=False,
        )
        return settings, verifier
    if not is_loopback(options.host) and not options.allow_unauthenticated:
        raise RefusedToStart(
            f"refusing to serve {options.host} without authentication: anyone who can reach it "
            "could call every tool; use --auth-token-env VAR or OAuth mode "
            "(--oauth-issuer ...), or --allow-unauthenticated behind a proxy that authenticates"
        )
    return None, None


def build_app(
    server: Server[Any],
    options: HttpOptions,
    tool_scopes: Mapping[str, tuple[str, ...]],
    environ: Mapping[str, str] | None = None,
    *,
    dispatcher: Dispatcher | None = None,
) -> Gate:
    """The ASGI app: the SDK's Streamable HTTP app behind the `Gate`; stateless, with the
    fast path for `dispatcher`'s plain requests (`http_fast_path`) when one is given."""
    auth, verifier = authentication(options, os.environ if environ is None else environ)
    security = transport_security(options)
    starlette_app = server.streamable_http_app(
        streamable_http_path=options.path,
        json_response=options.json_response,
        stateless_http=options.stateless,
        max_request_body_size=options.max_body_bytes,
        session_idle_timeout=options.session_idle_timeout,
        max_sessions=options.max_sessions or None,
        transport_security=security,
        host=options.host,
        auth=auth,
        token_verifier=verifier,
    )
    if TELEMETRY.metrics is not None:  # `--metrics`: beside the endpoint, like /healthz
        starlette_app.router.routes.append(
            Route(METRICS_PATH, TELEMETRY.metrics.endpoint, methods=["GET"])
        )
    if options.stateless and dispatcher is not None:
        from .fast_path import install  # noqa: PLC0415

        install(starlette_app, server, dispatcher, security, options)
    metadata_url = None
    if auth is not None and auth.resource_server_url is not None:
        metadata_url = str(build_resource_metadata_url(auth.resource_server_url))
    limits = GateLimits(
        max_body_bytes=options.max_body_bytes,
        read_timeout=options.read_timeout,
        max_sessions_per_client=None if options.stateless else options.max_sessions_per_client,
        session_idle_timeout=options.session_idle_timeout,
    )
    scopes = None
    if options.oauth and verifier is not None:
        scopes = ScopeCheck(tool_scopes, verifier, metadata_url)
    return Gate(starlette_app, limits, scopes=scopes)


def serve(app: Gate, options: HttpOptions) -> None:
    """Run until SIGTERM/SIGINT, then drain: refuse new requests, let calls finish, exit 0."""
    import uvicorn  # noqa: PLC0415  (kept off the stdio start-up path)

    from .connections import max_waiting, protocol  # noqa: PLC0415  (imports uvicorn)

    config = uvicorn.Config(
        app,
        # uvicorn's h11 protocol, with a deadline for request heads (see `http_connections`).
        http=protocol(options.header_timeout, max_waiting()),
        host=options.host,
        port=options.port,
        log_level="warning",
        # uvicorn's loggers then go through the root handlers, and their redaction.
        log_config=None,
        timeout_keep_alive=max(1, round(options.idle_timeout)),
        timeout_graceful_shutdown=1,
        proxy_headers=options.forwarded_allow_ips is not None,
        forwarded_allow_ips=options.forwarded_allow_ips,
    )
    DrainingServer(config, app, options.shutdown_grace).run()


class DrainingServer:
    """uvicorn's server with a drain before its own shutdown.

    On the first signal the gate refuses new requests (503) while calls in flight finish,
    for up to `grace` seconds; only then is uvicorn told to exit. Its own handling would cut
    the SSE streams that carry the answers at once, and re-raise the signal (exit status
    -15 rather than 0).
    """

    def __init__(self, config: Any, gate: Gate, grace: float) -> None:
        import uvicorn  # noqa: PLC0415

        outer = self

        class _Server(uvicorn.Server):
            def handle_exit(self, sig: int, frame: FrameType | None) -> None:
                outer.signalled(sig)  # and no re-raise of the signal after shutdown

            async def on_tick(self, counter: int) -> bool:
                if outer.drained():
                    self.should_exit = True  # also what the SSE layer watches
                return await super().on_tick(counter)

        self._server = _Server(config)
        self._gate = gate
        self._grace = grace
        self._since: float | None = None

    def signalled(self, sig: int) -> None:
        if self._since is not None:
            if sig == signal.SIGINT:
                self._server.force_exit = True  # a second Ctrl-C: stop now
            return
        logger.warning(
            "%s: draining %d in-flight request(s)", signal.Signals(sig).name, self._gate.in_flight
        )
        self._since = time.monotonic()
        self._gate.draining = True

    def drained(self) -> bool:
        if self._since is None:
            return False
        over = time.monotonic() - self._since > self._grace
        if over and self._gate.in_flight:
            logger.warning("shutdown grace over: %d request(s) cut", self._gate.in_flight)
        return over or self._gate.in_flight == 0

    def run(self) -> None:
        self._server.run()
