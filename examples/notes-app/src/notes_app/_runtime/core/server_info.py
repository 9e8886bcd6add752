# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""What the manifest says about the server itself, as the generated `launch` module states it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

# What a catalog can offer besides tools, as `ServerInfo.offers` names it.
OFFERS = ("resources", "subscribe", "prompts", "completions")


class ServerHandlers(Protocol):
    """A catalog, as serving sees it: the low-level server's handlers for what it holds."""

    def server_handlers(self, dispatcher: Any) -> dict[str, Any]: ...


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
    # Request headers whose values never appear in a log line (`secret_headers`).
    secret_headers: tuple[str, ...] = ()
    debug: bool = False  # the manifest's `debug`: full exception messages to the client
    timeout: float | None = None  # the manifest's default per-call timeout
    catalog: ServerHandlers | None = None  # resources, templates and prompts, if any
    # What the catalog offers (of `OFFERS`), known before the catalog itself is loaded: the
    # capabilities the handshake answered at start-up declares.
    offers: tuple[str, ...] = ()
