"""The handler context: what a handler that declares a second parameter receives.

Names follow FastMCP's `Context`. Elicitation and sampling work in both protocol eras: up to
2025-11-25 they are requests sent to the client mid-call; from 2026-07-28 the call answers
with an input-required result and the client retries it with the answers, so a handler that
asks runs again from the start, and each question it asked before is answered from the retry.
"""

from __future__ import annotations

import base64
import json
import os
import warnings
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from mcp.server import ServerRequestContext
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.types import (
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    EmptyResult,
    InputRequiredResult,
    LoggingLevel,
    SamplingMessage,
    SetLevelRequestParams,
    TextContent,
)

from .errors import ToolError


@contextmanager
def handshake_era_api() -> Iterator[None]:
    """Logging and pushed sampling are deprecated as of 2026-07-28, and still the way to
    serve clients of earlier revisions: the SDK's warning about them is not for users."""
    from mcp.shared.exceptions import MCPDeprecationWarning  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        yield


MODERN_ERA = "2026-07-28"
LEVELS: tuple[LoggingLevel, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)


class InputRequired(Exception):  # a signal to the dispatcher, not an error
    """Raised by `Context` in the 2026-07-28 era: the call must answer with these requests."""

    def __init__(self, requests: Mapping[str, Any], state: str) -> None:
        super().__init__("input required")
        self.result = InputRequiredResult(input_requests=dict(requests), request_state=state)


class LogLevels:
    """The level each handshake-era connection asked for with `logging/setLevel`."""

    def __init__(self, limit: int = 10_000) -> None:
        self._levels: OrderedDict[int, LoggingLevel] = OrderedDict()
        self._limit = limit

    async def set_level(
        self, ctx: ServerRequestContext[Any, Any], params: SetLevelRequestParams
    ) -> EmptyResult:
        self._levels[_connection_key(ctx)] = params.level
        self._levels.move_to_end(_connection_key(ctx))
        while len(self._levels) > self._limit:
            self._levels.popitem(last=False)
        return EmptyResult()

    def allows(self, ctx: ServerRequestContext[Any, Any], level: LoggingLevel) -> bool:
        wanted = self._levels.get(_connection_key(ctx), "debug")
        return LEVELS.index(level) >= LEVELS.index(wanted)


def _connection_key(ctx: ServerRequestContext[Any, Any]) -> int:
    # The initialize params are the connection's own object, the same for its every request.
    return id(ctx.session.client_params)


class Context:
    """One call's context: progress, client logging, cancellation, questions, caller."""

    def __init__(
        self,
        request: ServerRequestContext[Any, Any] | None,
        *,
        env_names: Sequence[str] = (),
        log_levels: LogLevels | None = None,
        answers: Mapping[str, Any] | None = None,
        state: str | None = None,
    ) -> None:
        self._request = request
        self._env_names = tuple(env_names)
        self._log_levels = log_levels
        self._answers = dict(answers or {})
        self._recorded: dict[str, Any] = _decode_state(state)
        self._asked = 0
        self.is_cancelled = False

    # Who and what

    @property
    def request_id(self) -> str | None:
        request_id = None if self._request is None else self._request.request_id
        return None if request_id is None else str(request_id)

    @property
    def protocol_version(self) -> str | None:
        return None if self._request is None else self._request.protocol_version

    @property
    def client_info(self) -> Any:
        """The client's `clientInfo` (name, version), when it sent one."""
        params = None if self._request is None else self._request.session.client_params
        return None if params is None else params.client_info

    @property
    def session_id(self) -> str | None:
        """The HTTP session id (`Mcp-Session-Id`); None on stdio and in stateless mode."""
        headers = getattr(getattr(self._request, "request", None), "headers", None)
        return None if headers is None else headers.get("mcp-session-id")

    @property
    def subject(self) -> str | None:
        """The authenticated caller (the token's `sub`) on HTTP with authentication."""
        token = get_access_token()
        return None if token is None else (token.subject or token.client_id)

    @property
    def scopes(self) -> tuple[str, ...]:
        token = get_access_token()
        return () if token is None else tuple(token.scopes)

    @property
    def env(self) -> Mapping[str, str | None]:
        """The manifest's `env` variables, by name (None when unset)."""
        return {name: os.environ.get(name) for name in self._env_names}

    # Progress and logging

    async def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """A progress notification, when the client asked for progress on this call."""
        if self._request is not None:
            await self._request.session.report_progress(progress, total, message)

    async def log(self, level: LoggingLevel, message: Any) -> None:
        request = self._request
        if request is None:
            return
        if self._log_levels is not None and not self._log_levels.allows(request, level):
            return
        with handshake_era_api():
            await request.session.send_log_message(
                level, message, logger=None, related_request_id=request.request_id
            )

    async def debug(self, message: Any) -> None:
        await self.log("debug", message)

    async def info(self, message: Any) -> None:
        await self.log("info", message)

    async def warning(self, message: Any) -> None:
        await self.log("warning", message)

    async def error(self, message: Any) -> None:
        await self.log("error", message)

    # Questions to the client

    async def elicit(self, message: str, schema: Mapping[str, Any]) -> ElicitResult:
        """Ask the user: `schema` is a flat JSON Schema object of primitive properties.

        The answer's `action` is "accept" (with `content`), "decline" or "cancel".
        """
        params = ElicitRequestFormParams(message=message, requested_schema=dict(schema))
        if not self._modern:
            answered: ElicitResult = await self._session().elicit_form(
                message, dict(schema), related_request_id=self._request_id_raw
            )
            return answered
        answer = self._answer_or_ask(ElicitRequest(params=params))
        return ElicitResult.model_validate(answer)

    async def sample(
        self,
        messages: str | Sequence[SamplingMessage],
        *,
        max_tokens: int = 512,
        system_prompt: str | None = None,
        temperature: float | None = None,
    ) -> CreateMessageResult:
        """Ask the client's model for a completion."""
        if isinstance(messages, str):
            text = TextContent(type="text", text=messages)
            messages = [SamplingMessage(role="user", content=text)]
        params = CreateMessageRequestParams(
            messages=list(messages),
            max_tokens=max_tokens,
            system_prompt=system_prompt,
            temperature=temperature,
        )
        if not self._modern:
            with handshake_era_api():
                sampled: CreateMessageResult = await self._session().create_message(
                    messages=list(messages),
                    max_tokens=max_tokens,
                    system_prompt=system_prompt,
                    temperature=temperature,
                    related_request_id=self._request_id_raw,
                )
            return sampled
        answer = self._answer_or_ask(CreateMessageRequest(params=params))
        return CreateMessageResult.model_validate(answer)

    @property
    def _modern(self) -> bool:
        version = self.protocol_version
        return version is not None and version >= MODERN_ERA

    @property
    def _request_id_raw(self) -> Any:
        return None if self._request is None else self._request.request_id

    def _session(self) -> Any:
        if self._request is None:
            raise ToolError("this call has no client to ask")
        return self._request.session

    def _answer_or_ask(self, request: ElicitRequest | CreateMessageRequest) -> Any:
        """The client's answer to this run's next question, or `InputRequired` to ask it.

        Questions are keyed by their order in the run: a handler asks the same questions
        in the same order each time it runs, until it has all its answers.
        """
        self._asked += 1
        key = f"q{self._asked}"
        if key in self._recorded:
            return self._recorded[key]
        if key in self._answers:
            answer = self._answers[key]
            self._recorded[key] = answer
            return answer
        self._require_capability(
            "elicitation" if isinstance(request, ElicitRequest) else "sampling"
        )
        wire = request.model_dump(mode="json", by_alias=True, exclude_none=True)
        raise InputRequired({key: wire}, _encode_state(self._recorded))

    def _require_capability(self, name: str) -> None:
        """A client that did not declare `name` is never asked (the protocol forbids it)."""
        session = None if self._request is None else self._request.session
        declared = getattr(session, "client_capabilities", None)
        if declared is not None and getattr(declared, name, None) is None:
            raise ToolError(f"the client does not support {name}")


def _encode_state(recorded: Mapping[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(recorded).encode()).decode()


def _decode_state(state: str | None) -> dict[str, Any]:
    if not state:
        return {}
    try:
        decoded = json.loads(base64.urlsafe_b64decode(state.encode()))
    except ValueError:
        return {}
    return decoded if isinstance(decoded, dict) else {}


def plain_answers(input_responses: Mapping[str, Any] | None) -> dict[str, Any]:
    """The retry's answers as plain JSON, by question key."""
    answers: dict[str, Any] = {}
    for key, value in (input_responses or {}).items():
        dump = getattr(value, "model_dump", None)
        answers[key] = (
            dump(mode="json", by_alias=True, exclude_none=True) if callable(dump) else value
        )
    return answers
