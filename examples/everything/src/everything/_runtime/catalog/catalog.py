# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The server's resources, resource templates and prompts, wired into the low-level server.

Only the handlers the manifest needs are given to the server, so it declares exactly the
capabilities it uses: a tools-only server declares neither `resources` nor `prompts`. The
lists come from the manifest and never change while the server runs, so `listChanged` is
false: a new list needs a new manifest, that is a regenerated and restarted server, and a
restart ends every session (over stdio the process; over HTTP the session ids), so no client
that saw the old list is left to notify. Contents change without the list changing, which is
what `subscribe: true` and `resource_updated` are for.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    BlobResourceContents,
    CompleteRequestParams,
    CompleteResult,
    EmptyResult,
    GetPromptRequestParams,
    GetPromptResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    PaginatedRequestParams,
    PromptReference,
    ReadResourceRequestParams,
    ReadResourceResult,
    SubscribeRequestParams,
    TextResourceContents,
    UnsubscribeRequestParams,
)

from ..core.defaults import DEFAULT_MAX_RESULT_BYTES
from ..dispatch.context import Context
from .completions import complete_from
from .handler_calls import HandlerPolicy, Unsendable, sendable
from .prompts import PromptSpec, get_prompt
from .resources import (
    CompiledTemplate,
    ResourceSpec,
    Subscriptions,
    TemplateSpec,
    call_handler,
    contents,
    not_found,
    page,
    refusal,
    unreadable,
)
from .template_values import shown

if TYPE_CHECKING:
    from ..dispatch.dispatcher import Dispatcher
    from .listen import Listening

logger = logging.getLogger(__name__)

Sent = TypeVar("Sent", ReadResourceResult, GetPromptResult, CompleteResult)


class Catalog:
    """Everything the server offers besides tools."""

    def __init__(
        self,
        resources: Sequence[ResourceSpec] = (),
        templates: Sequence[TemplateSpec] = (),
        prompts: Sequence[PromptSpec] = (),
    ) -> None:
        self.resources = {r.uri: r for r in resources}
        self.templates = [CompiledTemplate(t) for t in templates]
        self.prompts = {p.name: p for p in prompts}
        # A renamed prompt answers its former names too, unlisted (`renamed_from`), so
        # clients built before the rename keep working; each one in use is logged once.
        self._former = {
            former: p.name
            for p in prompts
            for former in p.renamed_from
            if former not in self.prompts
        }
        self._former_seen: set[str] = set()
        self.subscriptions = Subscriptions()
        self._listening: Listening | None = None  # 2026-07-28 clients' listen streams
        self._dispatcher: Dispatcher | None = None

    def server_handlers(self, dispatcher: Dispatcher) -> dict[str, Any]:
        """The low-level server's keyword arguments for what this catalog holds."""
        self._dispatcher = dispatcher
        handlers: dict[str, Any] = {}
        if self.resources or self.templates:
            handlers |= {
                "on_list_resources": self.list_resources,
                "on_list_resource_templates": self.list_templates,
                "on_read_resource": self.read_resource,
            }
        if any(r.subscribe for r in self.resources.values()):
            from .listen import Listening  # noqa: PLC0415  (only with subscribable resources)

            self._listening = self._listening or Listening()
            handlers |= {
                "on_subscribe_resource": self.subscribe,
                "on_unsubscribe_resource": self.unsubscribe,
                "on_subscriptions_listen": self._listening.handler,
            }
        if self.prompts:
            handlers |= {"on_list_prompts": self.list_prompts, "on_get_prompt": self.get_prompt}
        if self._has_completions():
            handlers["on_completion"] = self.complete
        return handlers

    def _has_completions(self) -> bool:
        return any(t.spec.completions for t in self.templates) or any(
            p.completions for p in self.prompts.values()
        )

    def _handler_policy(self) -> HandlerPolicy:
        """The tools' worker threads, timeout and secret redaction, for the catalog's handlers."""
        dispatcher = self._dispatcher
        if dispatcher is None:
            return HandlerPolicy()
        policy = dispatcher.policy
        return HandlerPolicy(policy.errors.redactor.text, policy.workers, policy.default_timeout)

    def _context(self, ctx: ServerRequestContext[Any] | None) -> Context:
        dispatcher = self._dispatcher
        if dispatcher is None:
            return Context(ctx)
        return Context(ctx, env_names=dispatcher.policy.env_names, log_levels=dispatcher.log_levels)

    # Resources

    async def list_resources(
        self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        found, cursor = page([r.definition for r in self.resources.values()], _cursor(params))
        return ListResourcesResult.model_validate({"resources": found, "nextCursor": cursor})

    async def list_templates(
        self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListResourceTemplatesResult:
        entries = [t.spec.definition for t in self.templates]
        found, cursor = page(entries, _cursor(params))
        return ListResourceTemplatesResult.model_validate(
            {"resourceTemplates": found, "nextCursor": cursor}
        )

    async def read_resource(
        self, ctx: ServerRequestContext[Any] | None, params: ReadResourceRequestParams
    ) -> ReadResourceResult:
        return await self.read(str(params.uri), ctx)

    async def read(
        self, uri: str, ctx: ServerRequestContext[Any] | None = None
    ) -> ReadResourceResult:
        """The contents at `uri`: a fixed resource first, then the first template that matches.

        A URI too long to match, or not Unicode text, is refused before any work; contents
        over the server's result limit (--max-result-bytes) are refused as a tool's result
        would be.
        """
        refused = unreadable(uri)
        if refused is not None:
            raise refused
        return self._bounded(uri, await self._contents(uri, ctx))

    async def _contents(
        self, uri: str, ctx: ServerRequestContext[Any] | None
    ) -> ReadResourceResult:
        resource = self.resources.get(uri)
        if resource is not None:
            mime = resource.definition.get("mimeType")
            if resource.text is not None:
                text = TextResourceContents(uri=uri, mime_type=mime, text=resource.text)
                return ReadResourceResult(contents=[text])
            if resource.blob is not None:
                blob = BlobResourceContents(uri=uri, mime_type=mime, blob=resource.blob)
                return ReadResourceResult(contents=[blob])
            assert resource.handler is not None
            outcome = await call_handler(
                resource.handler, self._context(ctx), self._handler_policy()
            )
            return contents(uri, mime, outcome)
        for template in self.templates:
            arguments = await template.arguments(uri)
            if arguments is not None:
                mime = template.spec.definition.get("mimeType")
                outcome = await call_handler(
                    template.spec.handler, self._context(ctx), self._handler_policy(), **arguments
                )
                return contents(uri, mime, outcome)
        raise not_found(uri)

    def _sent(self, result: Sent) -> Sent:
        """`result` redacted and checked against the server's result limit; `Unsendable`."""
        dispatcher = self._dispatcher
        if dispatcher is None:
            return sendable(result, lambda data: data, DEFAULT_MAX_RESULT_BYTES)
        policy = dispatcher.policy
        return sendable(result, policy.errors.redactor.value, policy.max_result_bytes)

    def _bounded(self, uri: str, result: ReadResourceResult) -> ReadResourceResult:
        try:
            return self._sent(result)
        except Unsendable as exc:
            raise refusal(uri, f"the resource cannot be sent: {exc}", INTERNAL_ERROR) from None

    async def subscribe(
        self, ctx: ServerRequestContext[Any], params: SubscribeRequestParams
    ) -> EmptyResult:
        self.subscriptions.add(self._subscribable(str(params.uri)), ctx.session)
        return EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any], params: UnsubscribeRequestParams
    ) -> EmptyResult:
        self.subscriptions.remove(str(params.uri), ctx.session)
        return EmptyResult()

    def _subscribable(self, uri: str) -> str:
        resource = self.resources.get(uri)
        if resource is None:
            raise not_found(uri)
        if not resource.subscribe:
            raise MCPError(INVALID_PARAMS, f"{uri} does not take subscriptions", {"uri": uri})
        return uri

    async def resource_updated(self, uri: str) -> int:
        """Tell every subscriber of `uri` that it changed, of both eras; how many
        handshake-era sessions were told (listen streams are not counted: the bus does not
        say)."""
        told = await self.subscriptions.notify(uri)
        if self._listening is not None:
            await self._listening.resource_updated(uri)
        return told

    # Prompts

    async def list_prompts(
        self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListPromptsResult:
        found, cursor = page([p.definition for p in self.prompts.values()], _cursor(params))
        return ListPromptsResult.model_validate({"prompts": found, "nextCursor": cursor})

    async def get_prompt(
        self, ctx: ServerRequestContext[Any] | None, params: GetPromptRequestParams
    ) -> GetPromptResult:
        spec = self._prompt(params.name)
        if spec is None:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt: {shown(params.name)}")
        policy = self._handler_policy()
        result = await get_prompt(spec, params.arguments, self._context(ctx), policy)
        try:
            return self._sent(result)
        except Unsendable as exc:
            message = f"the prompt cannot be sent: {exc}"
            raise MCPError(INTERNAL_ERROR, message, {"name": spec.name}) from None

    def _prompt(self, name: str) -> PromptSpec | None:
        """The prompt called `name`, or the one that was called so before its rename."""
        spec = self.prompts.get(name)
        if spec is None and name in self._former:
            current = self._former[name]
            if name not in self._former_seen:
                self._former_seen.add(name)
                logger.warning(
                    "deprecated prompt name %r asked for: it is %r now (answered under both; "
                    "update the client)",
                    name,
                    current,
                )
            spec = self.prompts[current]
        return spec

    # Completions

    async def complete(
        self, ctx: ServerRequestContext[Any] | None, params: CompleteRequestParams
    ) -> CompleteResult:
        name, typed = params.argument.name, params.argument.value
        if isinstance(params.ref, PromptReference):
            spec = self._prompt(params.ref.name)
            if spec is None:
                raise MCPError(INVALID_PARAMS, f"Unknown prompt: {shown(params.ref.name)}")
            source = spec.completions.get(name)
        else:
            uri = params.ref.uri
            template = next((t for t in self.templates if t.spec.uri_template == uri), None)
            if template is None:
                raise MCPError(INVALID_PARAMS, f"Unknown resource template: {shown(uri)}")
            source = template.spec.completions.get(name)
        resolved = params.context.arguments if params.context is not None else None
        policy = self._handler_policy()
        result = await complete_from(source, typed, resolved, self._context(ctx), policy)
        try:
            return self._sent(result)
        except Unsendable as exc:
            raise MCPError(INTERNAL_ERROR, f"the completion cannot be sent: {exc}") from None


def _cursor(params: PaginatedRequestParams | None) -> str | None:
    return None if params is None else params.cursor
