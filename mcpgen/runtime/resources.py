"""Resources and resource templates: list, read, template matching, subscriptions.

A resource's contents are static (text, or a base64 blob of a project file shipped in the
package) or come from the user's handler. A template's variables are matched out of the URI,
converted to the types their JSON Schemas give, checked, and passed to the handler by name.
"""

from __future__ import annotations

import asyncio
import base64
import inspect
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias
from urllib.parse import parse_qs, unquote

from mcp.shared.exceptions import MCPError
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    BlobResourceContents,
    ReadResourceResult,
    TextResourceContents,
)

from .completions import CompletionSource, being_cancelled
from .context import InputRequired
from .errors import ToolError, new_error_id
from .validation import SchemaCheck

# The protocol's code for a URI no resource or template answers to.
RESOURCE_NOT_FOUND = -32002
logger = logging.getLogger(__name__)
PAGE_SIZE = 100

ResourceContents: TypeAlias = TextResourceContents | BlobResourceContents
ReadResult: TypeAlias = (
    str | bytes | Mapping[str, Any] | ResourceContents | Sequence[ResourceContents]
)
ReadHandler: TypeAlias = Callable[..., ReadResult | Awaitable[ReadResult]]


@dataclass(frozen=True)
class ResourceSpec:
    """A resource at a fixed URI: `text`, `blob` (base64) or a handler gives its contents."""

    definition: Mapping[str, Any]  # the resources/list entry
    text: str | None = None
    blob: str | None = None
    handler: ReadHandler | None = None
    subscribe: bool = False

    @property
    def uri(self) -> str:
        return str(self.definition["uri"])


@dataclass(frozen=True)
class TemplateSpec:
    """Resources named by an RFC 6570 template; the handler gets its variables, typed."""

    definition: Mapping[str, Any]  # the resources/templates/list entry
    handler: ReadHandler
    parameters: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    completions: Mapping[str, CompletionSource] = field(default_factory=dict)

    @property
    def uri_template(self) -> str:
        return str(self.definition["uriTemplate"])


def page(items: Sequence[Any], cursor: str | None) -> tuple[list[Any], str | None]:
    """One page of `items` from the opaque `cursor`, and the cursor of the next page."""
    start = 0
    if cursor is not None:
        if not cursor.isdigit() or int(cursor) > len(items):
            raise MCPError(INVALID_PARAMS, f"invalid cursor {cursor!r}")
        start = int(cursor)
    end = start + PAGE_SIZE
    return list(items[start:end]), (str(end) if end < len(items) else None)


def not_found(uri: str) -> MCPError:
    return MCPError(RESOURCE_NOT_FOUND, "Resource not found", {"uri": uri})


_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^{}]*)\}")


class TemplateMatcher:
    """An RFC 6570 template turned around: URI → variables (levels 1-3, no prefixes)."""

    def __init__(self, template: str) -> None:
        pattern, self.query_names = "", []
        self.names: list[str] = []
        position = 0
        for match in _EXPRESSION.finditer(template):
            pattern += re.escape(template[position : match.start()])
            position = match.end()
            operator, variables = (
                match.group(1),
                [re.sub(r"(\*|:\d+)$", "", v) for v in match.group(2).split(",")],
            )
            if operator in ("?", "&"):
                self.query_names += variables
                pattern += rf"(?:[?&](?P<_query{len(self.query_names)}>[^#]*))?"
                continue
            prefix, separator = {"": ("", ","), "+": ("", ","), "#": ("#", ",")}.get(
                operator, (operator, operator)
            )
            allowed = r"[^#?]" if operator in ("+", "#") else r"[^/?#,&]"
            if operator in (".", ";"):
                allowed = r"[^/?#,&.;]"
            groups = []
            for name in variables:
                self.names.append(name)
                groups.append(f"(?P<v{len(self.names) - 1}>{allowed}*)")
            pattern += re.escape(prefix) + re.escape(separator).join(groups)
        pattern += re.escape(template[position:])
        self.regex = re.compile(pattern + r"\Z")

    def match(self, uri: str) -> dict[str, str] | None:
        found = self.regex.match(uri)
        if found is None:
            return None
        values = {name: unquote(found.group(f"v{index}")) for index, name in enumerate(self.names)}
        for key, text in found.groupdict().items():
            if key.startswith("_query") and text:
                for name, given in parse_qs(text, keep_blank_values=True).items():
                    if name in self.query_names:
                        values[name] = given[0]
        return values


def typed_value(text: str, schema: Mapping[str, Any]) -> Any:
    """A template variable as the type its schema names; the text as is when it cannot be."""
    kind = schema.get("type")
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            return float(text)
    except ValueError:
        return text
    if kind == "boolean" and text in ("true", "false"):
        return text == "true"
    return text


class CompiledTemplate:
    def __init__(self, spec: TemplateSpec) -> None:
        self.spec = spec
        self.matcher = TemplateMatcher(spec.uri_template)
        self.checks = {name: SchemaCheck(schema) for name, schema in spec.parameters.items()}

    def arguments(self, uri: str) -> dict[str, Any] | None:
        """The handler's keyword arguments for `uri`, None if it does not match.

        MCPError (invalid params) when a variable fails its schema.
        """
        found = self.matcher.match(uri)
        if found is None:
            return None
        typed: dict[str, Any] = {}
        for name, text in found.items():
            schema = self.spec.parameters.get(name, {})
            typed[name] = value = typed_value(text, schema)
            problems = self.checks[name].problems(value) if name in self.checks else []
            if problems:
                raise MCPError(INVALID_PARAMS, f"{name}: {problems[0]}", {"uri": uri})
        return typed


async def call_handler(
    handler: Callable[..., Any],
    context: Any,
    redact: Callable[[str], str],
    /,
    **arguments: Any,
) -> Any:
    """Call a sync or async handler, giving it the context when it takes a `ctx` parameter.

    What it raises becomes a protocol error that names the exception's type and an error id
    (the message, which may hold a secret, goes to the log); a `ToolError` says its own
    message, through `redact` (the secrets' values replaced). Not even `SystemExit`
    escapes: one bad handler must not end the server. (Positional-only parameters: the
    handler's own arguments may have any name.)
    """
    if "ctx" in inspect.signature(handler).parameters:
        arguments["ctx"] = context
    try:
        outcome = handler(**arguments)
        return await outcome if inspect.isawaitable(outcome) else outcome
    except (MCPError, InputRequired):  # the handler's own protocol answer, or its question
        raise
    except ToolError as exc:
        raise MCPError(INTERNAL_ERROR, redact(str(exc))) from None
    except NotImplementedError:  # the stub mcpgen wrote
        raise MCPError(INTERNAL_ERROR, "the handler is not implemented yet") from None
    except BaseException as exc:
        if isinstance(exc, asyncio.CancelledError) and being_cancelled():
            raise
        error_id = new_error_id()
        name = getattr(handler, "__name__", repr(handler))
        trace = (type(exc), exc, exc.__traceback__)
        logger.error("handler %s failed (error id %s)", name, error_id, exc_info=trace)
        message = f"the handler failed: {type(exc).__name__} (error id {error_id})"
        raise MCPError(INTERNAL_ERROR, message) from None


def contents(uri: str, mime_type: str | None, outcome: ReadResult) -> ReadResourceResult:
    """A handler's return value as resources/read's result."""
    if isinstance(outcome, (TextResourceContents, BlobResourceContents)):
        return ReadResourceResult(contents=[outcome])
    if isinstance(outcome, (list, tuple)):
        return ReadResourceResult(contents=list(outcome))
    if isinstance(outcome, bytes):
        blob = base64.b64encode(outcome).decode("ascii")
        return ReadResourceResult(
            contents=[BlobResourceContents(uri=uri, mime_type=mime_type, blob=blob)]
        )
    if isinstance(outcome, Mapping):
        text = json.dumps(outcome, ensure_ascii=False)
        return ReadResourceResult(
            contents=[
                TextResourceContents(uri=uri, mime_type=mime_type or "application/json", text=text)
            ]
        )
    return ReadResourceResult(
        contents=[TextResourceContents(uri=uri, mime_type=mime_type, text=str(outcome))]
    )


class Subscriptions:
    """Which sessions asked for updates of which URIs.

    A session that can no longer be told (its connection ended) is dropped at the next update.
    """

    def __init__(self) -> None:
        self._sessions: dict[str, dict[int, Any]] = {}

    def add(self, uri: str, session: Any) -> None:
        self._sessions.setdefault(uri, {})[_connection(session)] = session

    def remove(self, uri: str, session: Any) -> None:
        self._sessions.get(uri, {}).pop(_connection(session), None)

    async def notify(self, uri: str) -> int:
        """Send notifications/resources/updated to each subscriber; how many were told."""
        told = 0
        for session in list(self._sessions.get(uri, {}).values()):
            try:
                await session.send_resource_updated(uri)
            except Exception:  # a closed session must not stop the others
                self.remove(uri, session)
            else:
                told += 1
        return told


def _connection(session: Any) -> int:
    # Each request may carry its own session object; the client's initialize parameters are
    # the one object a connection keeps (as `context.LogLevels` does).
    return id(getattr(session, "client_params", None) or session)
