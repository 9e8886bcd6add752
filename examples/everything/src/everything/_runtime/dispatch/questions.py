# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""What a handler can ask the client: a form for the user, its model, its roots.

Each question renders as the protocol's request (sent mid-call up to 2025-11-25, listed in an
input-required result from 2026-07-28) and reads the client's answer, refusing one that does
not fit: an answer of the wrong shape, or a form whose content breaks the requested schema.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, TypeVar

from mcp.types import (
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    ListRootsRequest,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)
from pydantic import BaseModel, ValidationError

from ..validation.schema_check import SchemaCheck

ResultT = TypeVar("ResultT", bound=BaseModel)


class AnswerDoesNotFit(ValueError):
    """The client's answer is not an answer to the question asked."""


@dataclass(frozen=True)
class Elicit:
    """Ask the user to fill a form: `schema` is a flat JSON Schema object of primitives."""

    message: str
    schema: Mapping[str, Any]
    capability: ClassVar[str] = "elicitation"

    def request(self) -> ElicitRequest:
        params = ElicitRequestFormParams(message=self.message, requested_schema=dict(self.schema))
        return ElicitRequest(params=params)

    def answer(self, wire: Any) -> ElicitResult:
        result = _parsed(ElicitResult, wire)
        if result.action == "accept":
            problems = SchemaCheck(self.schema).problems(result.content or {})
            if problems:
                raise AnswerDoesNotFit("; ".join(problems[:3]))
        return result


@dataclass(frozen=True)
class Sample:
    """Ask the client's model for a completion of `messages` (a text is one user message)."""

    messages: str | Sequence[SamplingMessage]
    max_tokens: int = 512
    system_prompt: str | None = None
    temperature: float | None = None
    capability: ClassVar[str] = "sampling"

    @property
    def sampling_messages(self) -> list[SamplingMessage]:
        if isinstance(self.messages, str):
            text = TextContent(type="text", text=self.messages)
            return [SamplingMessage(role="user", content=text)]
        return list(self.messages)

    def request(self) -> CreateMessageRequest:
        params = CreateMessageRequestParams(
            messages=self.sampling_messages,
            max_tokens=self.max_tokens,
            system_prompt=self.system_prompt,
            temperature=self.temperature,
        )
        return CreateMessageRequest(params=params)

    def answer(self, wire: Any) -> CreateMessageResult:
        return _parsed(CreateMessageResult, wire)


@dataclass(frozen=True)
class ListRoots:
    """Ask the client for its roots (the folders or files it lets the server work on)."""

    capability: ClassVar[str] = "roots"

    def request(self) -> ListRootsRequest:
        return ListRootsRequest()

    def answer(self, wire: Any) -> ListRootsResult:
        return _parsed(ListRootsResult, wire)


Question: TypeAlias = Elicit | Sample | ListRoots
Answer: TypeAlias = ElicitResult | CreateMessageResult | ListRootsResult


def _parsed(model: type[ResultT], wire: Any) -> ResultT:
    if not isinstance(wire, Mapping):
        raise AnswerDoesNotFit(f"expected an object, got {type(wire).__name__}")
    try:
        return model.model_validate(dict(wire))
    except ValidationError as exc:
        raise AnswerDoesNotFit(f"not a {model.__name__}: {exc.error_count()} problems") from None


def wire_request(question: Question) -> dict[str, Any]:
    """The request as it travels in `inputRequests`."""
    dumped: dict[str, Any] = question.request().model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    return dumped


def fingerprint(question: Question) -> str:
    """A short digest of the exact request: an answer counts only for the question it answers."""
    rendered = json.dumps(wire_request(question), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(rendered.encode()).digest()[:12]
    return base64.urlsafe_b64encode(digest).decode()
