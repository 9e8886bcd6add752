"""One upstream call: the request sent (again after a 429/503 or a failed connection, as
`retry` decides), its answer read within the size and time limits, the result made.

Nothing the API does escapes as an exception: a hang ends at the attempt's deadline (the whole
attempt, so a body dripped a byte at a time cannot stretch it), a huge body is read up to
`MAX_RESPONSE_BYTES`, garbage is returned as text, a broken connection is a tool error that
names what failed and nothing secret.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread

from ..core.errors import MIN_SECRET_LENGTH, Redactor
from ..core.results import error_result
from .answer import Answers, Received
from .auth import Credentials, credentials
from .binding import ApiSource, Binding
from .request import Outgoing, RequestError, build_request
from .retry import RETRY_STATUSES, retry_after_seconds, retry_delay

if TYPE_CHECKING:
    import httpx2

MAX_RESPONSE_BYTES = 16 * 1024 * 1024
OFF_LOOP_BYTES = 256 * 1024  # a larger answer is parsed on a worker thread
ACCEPT = "application/json, */*;q=0.8"


@dataclass(frozen=True)
class Clock:
    """Waiting, the time and the dice, passed in so tests compute the timing instead of
    sleeping through it."""

    sleep: Callable[[float], Awaitable[None]] = anyio.sleep
    now: Callable[[], float] = time.time
    dice: Callable[[], float] = random.random


@dataclass
class Upstream:
    """How one bound tool reaches its API."""

    tool: str
    source: ApiSource
    binding: Binding
    clock: Clock = field(default_factory=Clock)
    structured: bool = False  # the tool publishes an output schema

    def __post_init__(self) -> None:
        self.answers = Answers(self.tool, self.binding, self.structured)

    def base_url(self, environ: Mapping[str, str]) -> str:
        """The source's base URL, or the one its `base_url_env` variable names."""
        override = environ.get(self.source.base_url_env, "") if self.source.base_url_env else ""
        return override.strip() or self.source.base_url

    async def call(
        self,
        client: httpx2.AsyncClient,
        arguments: Mapping[str, Any],
        environ: Mapping[str, str],
        caller_authorization: str | None = None,
    ) -> Any:
        """The tool's result for `arguments`, as the handler returns it."""
        binding = self.binding
        found = credentials(self.source.auth, environ, caller_authorization)
        redactor = _redactor(found, environ, self.source)
        try:
            outgoing = build_request(binding, arguments)
        except RequestError as exc:
            return error_result(redactor.text(f"{binding.method} {binding.path}: {exc}"))
        try:
            received = await self._exchange(client, outgoing, found, environ)
        except _Failed as failed:
            return error_result(redactor.text(f"{binding.method} {binding.path} failed: {failed}"))
        if len(received.body) > OFF_LOOP_BYTES:  # parsing it would stall every other call
            return await anyio.to_thread.run_sync(self.answers.result, received, redactor)
        return self.answers.result(received, redactor)

    async def _exchange(
        self,
        client: httpx2.AsyncClient,
        outgoing: Outgoing,
        found: Credentials,
        environ: Mapping[str, str],
    ) -> Received:
        url = outgoing.url(self.base_url(environ), found.query)
        # The credentials win over an argument of the same header name.
        taken = {name.lower() for name, _ in found.headers}
        headers = [h for h in outgoing.headers if h[0].lower() not in taken] + list(found.headers)
        if not any(name.lower() == "accept" for name, _ in headers):
            # JSON where the API offers it (some answer XML to `*/*`), anything else if not.
            headers.insert(0, ("Accept", ACCEPT))
        retries = self.source.retries
        for attempt in range(retries + 1):
            last = attempt == retries
            try:
                received = await self._attempt(client, outgoing, url, headers)
            except _Failed as failed:
                if last or not (failed.unsent or self.binding.idempotent):
                    raise
                await self.clock.sleep(retry_delay(attempt, None, self.clock.dice) or 0.0)
                continue
            if received.status not in RETRY_STATUSES or last:
                return received
            retry_after = retry_after_seconds(received.retry_after, self.clock.now())
            wait = retry_delay(attempt, retry_after, self.clock.dice)
            if wait is None:  # asked to come back later than a call can wait
                return received
            await self.clock.sleep(wait)
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def _attempt(
        self,
        client: httpx2.AsyncClient,
        outgoing: Outgoing,
        url: str,
        headers: list[tuple[str, str]],
    ) -> Received:
        import httpx2  # noqa: PLC0415  (loaded by the client already)

        timeout = self.source.timeout
        try:
            with anyio.fail_after(timeout if timeout > 0 else math.inf):
                request = client.build_request(
                    outgoing.method,
                    url,
                    headers=headers,
                    content=outgoing.content,
                    # Each phase may take the whole attempt's time (httpx's own is 5 s).
                    timeout=timeout if timeout > 0 else None,
                )
                response = await client.send(request, stream=True)
                try:
                    body, too_large = await _read_capped(response)
                finally:
                    await response.aclose()
        except TimeoutError:
            raise _Failed(f"no answer within {timeout:g} s") from None
        except (httpx2.ConnectError, httpx2.ConnectTimeout) as exc:
            raise _Failed(f"could not connect to the API ({type(exc).__name__})", True) from None
        except httpx2.TimeoutException as exc:
            raise _Failed(f"no answer within {timeout:g} s ({type(exc).__name__})") from None
        except (httpx2.HTTPError, httpx2.InvalidURL) as exc:
            raise _Failed(f"the connection failed ({type(exc).__name__})") from None
        return Received(
            status=response.status_code,
            reason=response.reason_phrase,
            content_type=response.headers.get("content-type", ""),
            body=body,
            encoding=response.charset_encoding or "utf-8",
            retry_after=response.headers.get("retry-after"),
            too_large=too_large,
        )


class _Failed(Exception):
    """An attempt that got no answer. `unsent`: the request never reached the API."""

    def __init__(self, message: str, unsent: bool = False) -> None:
        super().__init__(message)
        self.unsent = unsent


async def _read_capped(response: httpx2.Response) -> tuple[bytes, bool]:
    """The body, up to `MAX_RESPONSE_BYTES`; True when there was more."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_RESPONSE_BYTES:
            return b"".join(chunks)[:MAX_RESPONSE_BYTES], True
    return b"".join(chunks), False


def _redactor(found: Credentials, environ: Mapping[str, str], source: ApiSource) -> Redactor:
    """Every secret of this call: the credentials sent and the auth variables' values."""
    auth_values = [environ.get(n, "") for n in source.auth.env_names] if source.auth else []
    values = {v for v in (*found.secrets, *auth_values) if len(v) >= MIN_SECRET_LENGTH}
    return Redactor(tuple(sorted(values, key=len, reverse=True)))
