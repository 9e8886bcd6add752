"""The handler the dispatcher runs for a bound tool, built from its binding on first call.

It takes the arguments as the client sent them (`Arguments` keeps them whole: no model
conversion, nothing renamed or defaulted), and a `Context` only when the source forwards the
caller's token, so the other bound tools stay on the transports' fast paths.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from .binding import ApiSource, Binding
from .call import Upstream
from .client import shared_client

if TYPE_CHECKING:
    from ..dispatch.context import Context


class Arguments(BaseModel):
    """A bound tool's arguments exactly as the client sent them (the input schema has
    judged them already), keyed by the schema's property names."""

    model_config = ConfigDict(extra="allow")

    def plain(self) -> dict[str, Any]:
        """The arguments as a dict, as the client sent them."""
        return dict(self.__pydantic_extra__ or {})


def caller_authorization(context: Context) -> str | None:
    """The caller's bearer token as an Authorization value (`Context.access_token`, read
    from the HTTP request that carried this very call); None on stdio or without one."""
    token = context.access_token
    return None if token is None else f"Bearer {token}"


def tool_handler(
    name: str, source: Mapping[str, Any], binding: Mapping[str, Any], *, structured: bool = False
) -> Callable[..., Awaitable[Any]]:
    """The handler of tool `name`, bound to `binding` on the API `source` (the plain dicts
    of `_generated/apis.py`); `structured` when the tool publishes an output schema."""
    upstream = Upstream(
        name, ApiSource.from_plain(source), Binding.from_plain(binding), structured=structured
    )
    auth = upstream.source.auth
    if auth is not None and auth.kind == "passthrough":

        async def call_as_caller(arguments: Arguments, context: Context) -> Any:
            caller = caller_authorization(context)
            return await upstream.call(await shared_client(), arguments.plain(), os.environ, caller)

        return call_as_caller

    async def call(arguments: Arguments) -> Any:
        return await upstream.call(await shared_client(), arguments.plain(), os.environ)

    return call
