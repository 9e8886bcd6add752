# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The secret that seals the request state of questions to the client (standard library only:
the command line checks it before the SDK loads)."""

from __future__ import annotations

import os
from collections.abc import Mapping

STATE_SECRET_ENV = "MCP_STATE_SECRET"
DEFAULT_STATE_TTL = 600.0  # seconds a client has to answer before the state expires


class StateSecretError(ValueError):
    """The configured secret is missing or too weak to start with."""


def state_secret(secret_env: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The secret that seals request state ("" for a random key per process)."""
    environ = os.environ if environ is None else environ
    name = secret_env or STATE_SECRET_ENV
    secret = environ.get(name, "")
    if not secret:
        if secret_env:
            raise StateSecretError(f"--state-secret-env names {name}, which is unset or empty")
        return ""
    if len(secret.encode()) < 32:
        raise StateSecretError(
            f"{name} must hold at least 32 bytes of random secret "
            '(python -c "import secrets; print(secrets.token_hex(32))")'
        )
    return secret
