# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""What each flag of the server's command line is when it is not given (argparse not needed)."""

from __future__ import annotations

from typing import Any

from ..core.defaults import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_RESULT_BYTES,
    DEFAULT_MAX_RESULT_CHARS,
    DEFAULT_WORKERS,
)
from ..core.state_secret import DEFAULT_STATE_TTL

# By the flag's destination: `--max-result-bytes` is `max_result_bytes`.
FLAG_DEFAULTS: dict[str, Any] = {
    "transport": "stdio",
    "host": "127.0.0.1",
    "port": 8000,
    "path": "/mcp",
    "log_level": "WARNING",
    "debug": None,  # None: not given, so the manifest's `debug` or the environment decides
    "timeout": None,  # None: the manifest's `timeout`, else DEFAULT_TIMEOUT
    "workers": DEFAULT_WORKERS,
    "max_result_bytes": DEFAULT_MAX_RESULT_BYTES,
    "max_result_chars": DEFAULT_MAX_RESULT_CHARS,
    "toolsets": None,  # None: every tool (see `core.tool_filter`)
    "tools": None,
    "read_only": False,
    "state_secret_env": None,
    "state_ttl": DEFAULT_STATE_TTL,
    # The HTTP transport's (ignored on stdio, but for `max_body_bytes`: a line's limit).
    "allowed_host": [],
    "allowed_origin": [],
    "auth_token_env": None,
    "oauth_issuer": None,
    "oauth_audience": None,
    "oauth_resource": None,
    "oauth_jwks_url": None,
    "oauth_jwks_file": None,
    "allow_unauthenticated": False,
    "max_body_bytes": DEFAULT_MAX_BODY_BYTES,
    "read_timeout": 30.0,
    "header_timeout": 10.0,
    "idle_timeout": 5.0,
    "stateless": False,
    "metrics": False,
    "json_response": False,
    "max_sessions": 1000,
    "max_sessions_per_client": 50,
    "session_idle_timeout": 600.0,
    "shutdown_grace": 30.0,
    "forwarded_allow_ips": None,
}
