# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The handler context: what a handler that declares a second parameter receives.

Names follow FastMCP's `Context`. Questions (elicitation, sampling, roots) work in both
protocol eras: up to 2025-11-25 they are requests sent to the client mid-call; from 2026-07-28
the call answers with an input-required result and the client retries it with the answers and
the sealed request state, so a handler that asks runs again from the start, and each question
it asked before is answered from the state or the retry.
"""

from __future__ import annotations

import logging
import os
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.context import CallNext, ServerRequestContext
from mcp.server.context import HandlerResult as WireResult
from mcp.types import (
    CreateMessageResult,
    ElicitResult,
    EmptyResult,
    InputRequiredResult,
    ListRootsResult,
    LoggingLevel,
    SamplingMessage,
    SetLevelRequestParams,
)

from ..core import request_secrets
from ..core.errors import ToolError
from . import caller
from .caller import Headers
from .request_state import CallState

if TYPE_CHECKING:
    from .questions import Answer, Question

logger = logging.getLogger(__name__)


@contextmanager
def handshake_era_api() -> Iterator[None]:
    """Logging and pushed sampling are deprecated as of 2026-07-28, and still the way to
    serve clients of earlier revisions: the SDK's warning about them is not for users."""
    from mcp.shared.exceptions import MCPDeprecationWarning  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        yield


MODERN_ERA = "2026-07-28"
# Up to 2025-11-25 a form whose answer breaks its schema is put again, this many times at most
# (from 2026-07-28 each retry is the client's: it is asked again every time).
ELICIT_ATTEMPTS = 3
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
        http_request: Any = None,
        secret_headers: Sequence[str] = (),
    ) -> None:
        self._request = request
        # The HTTP request that carried the call (Starlette's): the SDK's request context
        # holds it, the stateless fast path passes it; None on stdio.
        self._http = http_request if http_request is not None else getattr(request, "request", None)
        self._secret_headers = tuple(secret_headers)
        self._headers: Headers | None = None
        if self._secret_headers and self._http is not None:
            request_secrets.hold(self.headers.secret_values())
        self._env_names = tuple(env_names)
        self._log_levels = log_levels
        # A retry's answers and state, as sent: the questions check their answers themselves.
        params = _raw_params(request)
        answers = params.get("inputResponses")
        self._answers: dict[str, Any] = dict(answers) if isinstance(answers, Mapping) else {}
        self._state = CallState.decode(params.get("requestState"))
        self._asked = 0
        self.is_cancelled = False

    # Tasks

    # Set by `task_calls` on a call that may run as a task: answers the call with its task.
    task_begin: Callable[[], None] | None = None

    async def begin_task(self) -> None:
        """Answer the call now with its task and go on in the background.

        Only in a call that may run as a task (its tool's `execution.taskSupport`, a client
        that takes tasks); elsewhere it does nothing. Questions asked before it are asked of
        the call itself; after it, through the task (`tasks/get` shows them).
        """
        if self.task_begin is not None:
            self.task_begin()
        await anyio.lowlevel.checkpoint()

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
        return caller.session_id(self._http)

    @property
    def headers(self) -> Headers:
        """The HTTP request's headers, looked up in any case; empty on stdio. Printed, the
        manifest's `secret_headers` read `[redacted]`."""
        if self._headers is None:
            self._headers = caller.request_headers(self._http, self._secret_headers)
        return self._headers

    @property
    def access_token(self) -> str | None:
        """The raw bearer token of the HTTP request (`Authorization: Bearer ...`), verified
        first when the server runs in bearer or OAuth mode; None on stdio or without one."""
        return caller.request_bearer(self._http)

    @property
    def peer(self) -> str | None:
        """The client's address on HTTP (the proxy's, unless `--forwarded-allow-ips`)."""
        return caller.peer_address(self._http)

    @property
    def client_key(self) -> str:
        """Who per-client limits count this call against: the token's subject, else the
        HTTP session, else the peer address ("stdio" on stdio)."""
        return caller.client_key(self._http)

    def _verified(self) -> Any:
        token = caller.verified_token(self._http)
        return token if token is not None else get_access_token()

    @property
    def subject(self) -> str | None:
        """The authenticated caller (the token's `sub`) on HTTP with authentication."""
        token = self._verified()
        return None if token is None else (token.subject or token.client_id)

    @property
    def scopes(self) -> tuple[str, ...]:
        token = self._verified()
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

    def client_supports(self, capability: str) -> bool:
        """Whether the client declared `capability` ("elicitation", "sampling", "roots").

        From 2026-07-28 clients declare capabilities with each request, so the answer can
        differ from one call to the next.
        """
        session = None if self._request is None else self._request.session
        declared = getattr(session, "client_capabilities", None)
        if declared is None:
            return False
        found = getattr(declared, capability, None)
        if capability == "elicitation" and found is not None:
            # A bare `elicitation: {}` means forms; a URL-only client cannot fill one.
            return found.form is not None or found.url is None
        return found is not None

    async def ask(
        self, questions: Mapping[str, Question], *, only_if_asked: bool = False
    ) -> dict[str, Answer]:
        """Ask several questions at once (`Elicit`, `Sample`, `ListRoots`); answers by key.

        From 2026-07-28 they travel together in one input-required result; before, they are
        sent one after the other. With `only_if_asked`, an answer counts only if it comes
        with the state of the round that asked it (a client cannot answer a question the
        server never put, nor reuse an answer given for other arguments).
        """
        from .questions import fingerprint, wire_request  # noqa: PLC0415  (on first use)

        if not self._modern:
            for question in questions.values():
                self._require(question)
            return {key: await self._ask_now(question) for key, question in questions.items()}
        answers: dict[str, Answer] = {}
        pending: dict[str, Question] = {}
        for key, question in questions.items():
            found = self._answered(key, question, only_if_asked=only_if_asked)
            if found is None:
                pending[key] = question
            else:
                answers[key] = found
        if pending:
            for question in pending.values():
                self._require(question)
            requests = {key: wire_request(q) for key, q in pending.items()}
            asking = {key: fingerprint(q) for key, q in pending.items()}
            raise InputRequired(requests, self._state.encode(asking))
        return answers

    def _require(self, question: Question) -> None:
        """The protocol forbids asking what the client did not declare it can answer."""
        self._session()  # no client at all: nobody to ask
        if not self.client_supports(question.capability):
            raise ToolError(f"the client does not support {question.capability}")

    async def elicit(
        self,
        message: str,
        schema: Mapping[str, Any],
        *,
        key: str | None = None,
        only_if_asked: bool = False,
    ) -> ElicitResult:
        """Ask the user: `schema` is a flat JSON Schema object of primitive properties.

        The answer's `action` is "accept" (with `content`), "decline" or "cancel". `key`
        names the question on the wire (default: its order in the call).
        """
        from .questions import Elicit  # noqa: PLC0415  (on first use)

        answer = await self._ask_one(key, Elicit(message, schema), only_if_asked)
        assert isinstance(answer, ElicitResult)
        return answer

    async def sample(
        self,
        messages: str | Sequence[SamplingMessage],
        *,
        max_tokens: int = 512,
        system_prompt: str | None = None,
        temperature: float | None = None,
        key: str | None = None,
    ) -> CreateMessageResult:
        """Ask the client's model for a completion."""
        from .questions import Sample  # noqa: PLC0415  (on first use)

        question = Sample(messages, max_tokens, system_prompt, temperature)
        answer = await self._ask_one(key, question, False)
        assert isinstance(answer, CreateMessageResult)
        return answer

    async def list_roots(self, *, key: str | None = None) -> ListRootsResult:
        """The client's roots: the folders and files it lets the server work on."""
        from .questions import ListRoots  # noqa: PLC0415  (on first use)

        answer = await self._ask_one(key, ListRoots(), False)
        assert isinstance(answer, ListRootsResult)
        return answer

    async def _ask_one(self, key: str | None, question: Question, only_if_asked: bool) -> Answer:
        if key is None:
            self._asked += 1
            key = f"q{self._asked}"
        return (await self.ask({key: question}, only_if_asked=only_if_asked))[key]

    async def _ask_now(self, question: Question) -> Answer:
        """Handshake era: the question is a request to the client, answered mid-call."""
        from .questions import AnswerDoesNotFit, Elicit, Sample  # noqa: PLC0415  (on first use)

        session = self._session()
        related = self._request_id_raw
        if isinstance(question, Elicit):
            for _ in range(ELICIT_ATTEMPTS):
                answered: ElicitResult = await session.elicit_form(
                    question.message, dict(question.schema), related_request_id=related
                )
                try:
                    return question.answer(answered.model_dump(mode="json", exclude_none=True))
                except AnswerDoesNotFit as exc:
                    logger.info("answer refused, asking again: %s", exc)
            raise ToolError(f"the user's answers did not fit the form {ELICIT_ATTEMPTS} times")
        if isinstance(question, Sample):
            with handshake_era_api():
                sampled: CreateMessageResult = await session.create_message(
                    messages=question.sampling_messages,
                    max_tokens=question.max_tokens,
                    system_prompt=question.system_prompt,
                    temperature=question.temperature,
                    related_request_id=related,
                )
            return sampled
        with handshake_era_api():
            roots: ListRootsResult = await session.list_roots()
        return roots

    def _answered(self, key: str, question: Question, *, only_if_asked: bool) -> Answer | None:
        """This question's answer from an earlier round or from this retry, if it has one."""
        from .questions import AnswerDoesNotFit, fingerprint  # noqa: PLC0415  (on first use)

        asked = fingerprint(question)
        recorded = self._state.answers.get(key)
        if isinstance(recorded, dict) and recorded.get("q") == asked:
            try:
                return question.answer(recorded.get("answer"))
            except AnswerDoesNotFit:
                pass  # recorded by another version of the handler: ask again
        if key not in self._answers:
            return None
        if (self._state.present or only_if_asked) and self._state.asked.get(key) != asked:
            logger.info("answer %r ignored: it does not answer the question this call asked", key)
            return None
        wire = self._answers[key]
        try:
            answer = question.answer(wire)
        except AnswerDoesNotFit as exc:
            logger.info("answer %r refused, asking again: %s", key, exc)
            return None
        self._state.answers[key] = {"q": asked, "answer": wire}
        return answer

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


async def input_required_results(
    ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> WireResult:
    """Server middleware: a prompt or resource handler that asks answers input-required.

    (tools/call turns `InputRequired` into its result itself, among its other outcomes.)
    """
    try:
        return await call_next(ctx)
    except InputRequired as asked:
        dumped: dict[str, Any] = asked.result.model_dump(
            mode="json", by_alias=True, exclude_none=True
        )
        return dumped


def _raw_params(request: ServerRequestContext[Any, Any] | None) -> Mapping[str, Any]:
    params = None if request is None else request.params
    return params if isinstance(params, Mapping) else {}
