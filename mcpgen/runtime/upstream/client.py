"""The process's pooled HTTP client for upstream calls: made on the first call, one per event
loop (a server runs one), closed when the server shuts down.

`httpx2` is the HTTP client the `mcp` SDK itself depends on, so a project with imported tools
adds nothing to what it installs; it is imported with the first upstream call.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx2

# Connections kept open per process: enough for the calls a busy server has in flight.
MAX_CONNECTIONS = 100
MAX_KEEPALIVE = 20

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx2.AsyncClient] = (
    weakref.WeakKeyDictionary()
)


def new_client(transport: httpx2.AsyncBaseTransport | None = None) -> httpx2.AsyncClient:
    """A client as upstream calls use it: pooled, no redirect followed (credentials must not
    travel to another origin; a 3xx answer is returned as a failure naming its status), no
    cookies kept between calls (each call is the caller's own)."""
    import http.cookiejar  # noqa: PLC0415

    import httpx2  # noqa: PLC0415  (loaded with the first upstream call)

    client = httpx2.AsyncClient(
        transport=transport,
        follow_redirects=False,
        limits=httpx2.Limits(
            max_connections=MAX_CONNECTIONS, max_keepalive_connections=MAX_KEEPALIVE
        ),
    )
    # A cookie one caller's call was given must not ride along on another caller's.
    client.cookies.jar.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    return client


def shared_client() -> httpx2.AsyncClient:
    """The running event loop's client, made on first use."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None or client.is_closed:
        client = _clients[loop] = new_client()
    return client


async def close_shared_client() -> None:
    """Close the running event loop's client, if it has one (at shutdown)."""
    loop = asyncio.get_running_loop()
    client = _clients.pop(loop, None)
    if client is not None:
        await client.aclose()
