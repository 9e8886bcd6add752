"""The process's pooled HTTP client for upstream calls: made on the first call, one per event
loop (a server runs one), closed when that loop shuts down.

`httpx2` is the HTTP client the `mcp` SDK itself depends on, so a project with imported tools
adds nothing to what it installs; it is imported with the first upstream call.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx2

# Connections kept open per process: enough for the calls a busy server has in flight.
MAX_CONNECTIONS = 100
MAX_KEEPALIVE = 20

# Each loop's client, with the generator that closes it when the loop shuts down.
_clients: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, tuple[httpx2.AsyncClient, AsyncGenerator[None, None]]
] = weakref.WeakKeyDictionary()


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


async def shared_client() -> httpx2.AsyncClient:
    """The running event loop's client, made on first use."""
    loop = asyncio.get_running_loop()
    held = _clients.get(loop)
    if held is not None and not held[0].is_closed:
        return held[0]
    client = new_client()
    keeper = _closed_at_shutdown(client)
    await anext(keeper)  # started: the loop now owns it (see `_closed_at_shutdown`)
    _clients[loop] = (client, keeper)
    return client


async def _closed_at_shutdown(client: httpx2.AsyncClient) -> AsyncGenerator[None, None]:
    """Holds `client` open until the event loop shuts down: `asyncio.run` (which anyio and
    uvicorn serve in) closes every unfinished async generator of its loop as it ends, and
    this one closes the client then, whichever transport served."""
    try:
        yield
        yield  # never reached: the loop's shutdown closes the generator at the first
    finally:
        await client.aclose()


async def close_shared_client() -> None:
    """Close the running event loop's client now, if it has one."""
    held = _clients.pop(asyncio.get_running_loop(), None)
    if held is not None:
        await held[1].aclose()
