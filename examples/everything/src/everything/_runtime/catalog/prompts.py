# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Prompts: list, and get, from a static template or the user's handler.

A static template is a `str.format` text whose placeholders name the prompt's arguments; an
optional argument the client leaves out renders as an empty string. A handler gets the
arguments by name and returns text, content blocks, prompt messages or a whole result.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from mcp.shared.exceptions import MCPError
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    AudioContent,
    EmbeddedResource,
    GetPromptResult,
    ImageContent,
    PromptMessage,
    ResourceLink,
    TextContent,
)

from .completions import CompletionSource
from .handler_calls import HandlerPolicy
from .resources import call_handler
from .template_values import shown

_BLOCKS = (TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource)
PromptResult: TypeAlias = str | Sequence[Any] | PromptMessage | GetPromptResult
PromptHandler: TypeAlias = Callable[..., PromptResult | Awaitable[PromptResult]]


@dataclass(frozen=True)
class PromptSpec:
    """One prompt: its prompts/list entry and a template or a handler."""

    definition: Mapping[str, Any]
    template: str | None = None
    handler: PromptHandler | None = None
    completions: Mapping[str, CompletionSource] = field(default_factory=dict)
    renamed_from: tuple[str, ...] = ()  # former names, still answered (unlisted)

    @property
    def name(self) -> str:
        return str(self.definition["name"])

    @property
    def arguments(self) -> list[Mapping[str, Any]]:
        return list(self.definition.get("arguments", ()))


def checked_arguments(spec: PromptSpec, given: Mapping[str, str] | None) -> dict[str, str | None]:
    """Every declared argument (None when left out); MCPError for a missing or unknown one."""
    given = dict(given or {})
    declared = {a["name"] for a in spec.arguments}
    unknown = sorted(set(given) - declared)
    if unknown:
        raise MCPError(INVALID_PARAMS, f"prompt {spec.name!r} has no argument {shown(unknown[0])}")
    missing = [a["name"] for a in spec.arguments if a.get("required") and a["name"] not in given]
    if missing:
        raise MCPError(INVALID_PARAMS, f"prompt {spec.name!r} needs the argument {missing[0]!r}")
    return {name: given.get(name) for name in sorted(declared)}


def as_result(spec: PromptSpec, outcome: PromptResult) -> GetPromptResult:
    """A handler's return value as prompts/get's result; MCPError when it is none."""
    try:
        return _as_result(spec, outcome)
    except (ValueError, TypeError):  # the exception's text may quote the value
        message = f"the handler returned {type(outcome).__name__}, which is not a prompt"
        raise MCPError(INTERNAL_ERROR, message, {"name": spec.name}) from None


def _as_result(spec: PromptSpec, outcome: PromptResult) -> GetPromptResult:
    description = spec.definition.get("description")
    if isinstance(outcome, GetPromptResult):
        return outcome
    if isinstance(outcome, (str, PromptMessage, *_BLOCKS)):
        items: list[Any] = [outcome]
    elif isinstance(outcome, Collection):
        items = list(outcome)
    else:  # an iterator, as a tool's, is refused: drawn on the event loop, it holds everyone
        raise TypeError(type(outcome).__name__)
    messages = []
    for item in items:
        if isinstance(item, PromptMessage):
            messages.append(item)
        elif isinstance(item, _BLOCKS):
            messages.append(PromptMessage(role="user", content=item))
        else:
            text = TextContent(type="text", text=str(item))
            messages.append(PromptMessage(role="user", content=text))
    return GetPromptResult(description=description, messages=messages)


async def get_prompt(
    spec: PromptSpec,
    given: Mapping[str, str] | None,
    context: Any,
    policy: HandlerPolicy,
) -> GetPromptResult:
    arguments = checked_arguments(spec, given)
    if spec.template is not None:
        values = {name: "" if value is None else value for name, value in arguments.items()}
        return as_result(spec, spec.template.format_map(values))
    assert spec.handler is not None
    return as_result(spec, await call_handler(spec.handler, context, policy, **arguments))
