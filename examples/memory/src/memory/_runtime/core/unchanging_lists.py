# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""A generated server's lists (tools, prompts, resources) never change while it runs.

They come from the manifest: a new list is a regenerated, restarted server. At 2026-07-28 the
SDK declares `listChanged: true` for every list of a server that serves
`subscriptions/listen` (there for resource updates); this puts the declaration back to what
is true, so no client waits for a change that never comes. `subscribe` stays.
"""

from __future__ import annotations

from typing import Any


def unchanging_lists(server: Any) -> None:
    """Declare at 2026-07-28 what is true of a generated server: its lists never change."""
    declared = server.get_capabilities

    def get_capabilities(*args: Any, **kwargs: Any) -> Any:
        capabilities = declared(*args, **kwargs)
        if kwargs.get("protocol_version") is not None:
            for offered in (capabilities.tools, capabilities.prompts, capabilities.resources):
                if offered is not None:
                    offered.list_changed = False
        return capabilities

    server.get_capabilities = get_capabilities
