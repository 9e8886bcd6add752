# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The server's command line, logging and environment, checked before anything heavy loads.

Standard library only: on stdio, the console entry reads the command line and starts
answering before the SDK is imported. Without arguments (how hosts start a server) the
settings are the flags' defaults, read without argparse; with some, `flags` parses them.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from ..core.errors import Redactor, redact_logs
from ..core.server_info import ServerInfo
from ..core.state_secret import StateSecretError, state_secret
from .flag_defaults import FLAG_DEFAULTS


def parse_args(info: ServerInfo, argv: Sequence[str] | None) -> SimpleNamespace:
    """The settings the command line `argv` (default: `sys.argv[1:]`) gives."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        return defaults()
    from .flags import parser  # noqa: PLC0415  (argparse: only for a command line with flags)

    return parser(info).parse_args(argv, namespace=SimpleNamespace())


def defaults() -> SimpleNamespace:
    """The settings of a command line without flags."""
    fresh: dict[str, Any] = {
        name: list(value) if isinstance(value, list) else value
        for name, value in FLAG_DEFAULTS.items()
    }
    return SimpleNamespace(**fresh)


def apply_environment_defaults(defaults: Mapping[str, str]) -> None:
    """Set each variable the manifest gives a default for, unless it is set already."""
    for name, default in defaults.items():
        os.environ.setdefault(name, default)


def missing_environment(required: Sequence[tuple[str, str]]) -> list[str]:
    """Required variables that are unset or empty, described for the error message."""
    return [
        f"{name} ({description})" if description else name
        for name, description in required
        if not os.environ.get(name)
    ]


def prepare(info: ServerInfo, argv: Sequence[str] | None) -> SimpleNamespace:
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
