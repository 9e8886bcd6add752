# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The server's defaults, where the command line and the layers that apply them both read them."""

from __future__ import annotations

DEBUG_ENV = "MCP_SERVER_DEBUG"  # set (not "0"): unexpected exceptions' messages reach the client
DEFAULT_WORKERS = 16  # threads for sync handlers
DEFAULT_TIMEOUT = 60.0  # seconds a call may run
DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_RESULT_CHARS = 100_000  # a tool result's text, or its JSON when structured
DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024  # an HTTP request body, a stdio line
