# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""`subscriptions/listen`: resource updates for 2026-07-28 clients.

The 2026-07-28 revision removed `resources/subscribe`: a client opens a `subscriptions/listen`
request whose response is a stream of the notifications it asked for (SEP-2575). The SDK's
`ListenHandler` serves those streams from a bus; `resource_updated` publishes on it what it
also sends to the handshake-era subscribers, so one call tells clients of both eras.

Serving the method makes the SDK declare `listChanged: true` at 2026-07-28, which
`core.unchanging_lists` puts back to false.
"""

from __future__ import annotations

from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.subscriptions import ResourceUpdated


class Listening:
    """The listen streams of one server, and the bus that feeds them."""

    def __init__(self) -> None:
        self.bus = InMemorySubscriptionBus()
        self.handler = ListenHandler(self.bus)

    async def resource_updated(self, uri: str) -> None:
        """Tell the open listen streams that subscribed to `uri` that it changed."""
        await self.bus.publish(ResourceUpdated(uri=uri))
