"""The requests the fast-path judge sends both ways, and where mcpgen may answer differently.

A stdio session is an opening (usually `initialize` and `notifications/initialized`) and a
body of cases, each one or more lines. A case says who answers it in mcpgen's server once a
plain handshake is done (`OPENING`: the start-up answers, `FAST`: the stdio fast path,
`SDK`: the SDK's session), and, where the SDK stays silent on a line mcpgen answers, the
exact line mcpgen sends instead (`extra`): the one way mcpgen may differ, documented here.

The protocol versions come from the SDK itself (`mcp.types.version`), plus versions no SDK
knows, so a new SDK release's versions are judged without editing this file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from tests.differential.fast_path_tools import CATALOGS

OPENING, FAST, SDK = "opening", "fast", "sdk"
# Versions a client may ask for: every one the SDK knows, and some it cannot.
VERSIONS: tuple[Any, ...] = (
    *HANDSHAKE_PROTOCOL_VERSIONS,
    *MODERN_PROTOCOL_VERSIONS,
    "1999-01-01",
    "",
)
UNREADABLE_ID = (
    b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,'
    b'"message":"Invalid Request: the id must be a string or an integer"}}'
)
NOT_JSON = (
    b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,'
    b'"message":"Parse error: the line is not valid JSON"}}'
)
NOT_JSON_RPC = (
    b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,'
    b'"message":"Invalid Request: not a JSON-RPC 2.0 message"}}'
)


def line(message: Any) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode("utf-8", "surrogatepass")


def request(request_id: Any, method: str, params: Any = None) -> bytes:
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    return line(message if params is None else {**message, "params": params})


def notification(method: str, params: Any = None) -> bytes:
    message = {"jsonrpc": "2.0", "method": method}
    return line(message if params is None else {**message, "params": params})


def call(request_id: Any, name: Any, arguments: Any = None, **extra: Any) -> bytes:
    params: dict[str, Any] = {"name": name, **extra}
    if arguments is not None:
        params["arguments"] = arguments
    return request(request_id, "tools/call", params)


def initialize(version: Any, capabilities: Any = None, request_id: Any = "init") -> dict[str, Any]:
    params = {
        "protocolVersion": version,
        "capabilities": {} if capabilities is None else capabilities,
        "clientInfo": {"name": "judge", "version": "0"},
    }
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


INITIALIZED = notification("notifications/initialized")


@dataclass(frozen=True)
class Case:
    name: str
    lines: tuple[bytes, ...]
    by: str = SDK  # who answers it in mcpgen after a plain handshake
    extra: tuple[bytes, ...] = ()  # mcpgen's answers where the SDK stays silent

    @property
    def ids(self) -> list[Any]:
        """The ids of its requests, as the SDK reads them (for `by`)."""
        text = b"\n".join(self.lines).decode(errors="replace").replace("\r", "\n")
        return [json.loads(part)["id"] for part in text.splitlines() if part.strip()]


def case(name: str, *lines: bytes, by: str = SDK, extra: tuple[bytes, ...] = ()) -> Case:
    return Case(name, lines, by, extra)


# The body of a session, in order: the opening answers the first cases (until a line it
# leaves to the SDK), the fast path the plain ones after.
BODY: tuple[Case, ...] = (
    case("tools/list", request(1, "tools/list"), by=OPENING),
    case("ping, a string id", request("ping ✓", "ping"), by=OPENING),
    case("tools/list, empty params", request(-7, "tools/list", {}), by=OPENING),
    case(
        "ping, keys reordered",
        line({"id": 8, "params": {}, "method": "ping", "jsonrpc": "2.0"}),
        by=OPENING,
    ),
    case("ping, the largest exact id", request(2**53 - 1, "ping"), by=OPENING),
    case("plain call", call(10, "echo", {"text": "Hello", "times": 2}), by=FAST),
    case("call refused by the schema", call(11, "echo", {"text": "lower case"}), by=FAST),
    case("structured result", call(12, "structured", {"a": 1}), by=FAST),
    case("result breaking its schema", call(13, "breaks", {}), by=FAST),
    case("raising handler", call(14, "raises", {}), by=FAST),
    case("text with a lone surrogate", call(15, "surrogate", {}), by=FAST),
    case("unknown tool", call(16, "nope", {})),
    case("call without arguments", call(17, "structured"), by=FAST),
    case("a date-time without a zone", call(18, "when", {"at": "2024-01-01T00:00:00"}), by=FAST),
    case("a date-time", call(19, "when", {"at": "2024-01-01T00:00:00Z"}), by=FAST),
    case("pattern properties", call(23, "tags", {"12": "x", "abc": 1}), by=FAST),
    case("pattern properties refused", call(24, "tags", {"12": 1}), by=FAST),
    case("tools/list after a call", request(20, "tools/list"), by=FAST),
    case("ping after a call", request(21, "ping"), by=FAST),
    case("ping, empty params", request(22, "ping", {}), by=FAST),
    case("handler with a context", call(30, "context", {})),
    case("call with a progress token", call(31, "echo", {"text": "A"}, _meta={"progressToken": 1})),
    case("call with empty _meta", call(32, "echo", {"text": "A"}, _meta={})),
    case("call with an extra param", call(33, "echo", {"text": "A"}, extra=1)),
    case("call, name not a string", call(34, 3, {})),
    case("call, arguments a list", call(35, "echo", ["Hi"])),
    case("call without params", request(36, "tools/call")),
    case("tools/list with a cursor", request(37, "tools/list", {"cursor": "x"})),
    case("ping with params", request(38, "ping", {"x": 1})),
    case("resources/list", request(40, "resources/list")),
    case("prompts/list", request(41, "prompts/list")),
    case("logging/setLevel", request(42, "logging/setLevel", {"level": "debug"})),
    case("unknown method", request(43, "no/such/method")),
    case("initialize again", line(initialize("2025-11-25", request_id=44))),
    case("initialized again", INITIALIZED),
    case("unknown notification", notification("notifications/whatever", {"x": 1})),
    case("cancel of nothing", notification("notifications/cancelled", {"requestId": 999})),
    case("empty string id", request("", "ping"), by=FAST),
    case("id beyond 2**53", request(2**60, "ping"), by=FAST),
    case("id beyond 64 bits", request(2**100, "ping"), by=FAST),
    case("negative id", request(-(2**40), "tools/list"), by=FAST),
    case("a long string id", request("i" * 300, "ping"), by=FAST),
    case("an answer to nothing", line({"jsonrpc": "2.0", "id": 50, "result": {}})),
    case(
        "an error to nothing",
        line({"jsonrpc": "2.0", "id": 51, "error": {"code": 1, "message": "x"}}),
    ),
    case("a float id", request(1.5, "ping"), extra=(UNREADABLE_ID,)),
    case("a boolean id", request(True, "ping"), extra=(UNREADABLE_ID,)),
    case("a null id", request(None, "ping"), extra=(UNREADABLE_ID,)),
    case("not JSON", b"{not json", extra=(NOT_JSON,)),
    case("an empty array", b"[]", extra=(NOT_JSON_RPC,)),
    case("a batch", line([json.loads(request(60, "ping"))]), extra=(NOT_JSON_RPC,)),
    case("no method, no result", b'{"jsonrpc":"2.0","id":61}', extra=(NOT_JSON_RPC,)),
    case(
        "jsonrpc 1.0",
        b'{"jsonrpc":"1.0","id":62,"method":"ping"}',
        extra=(
            b'{"jsonrpc":"2.0","id":62,"error":{"code":-32600,'
            b'"message":"Invalid Request: not a JSON-RPC 2.0 message"}}',
        ),
    ),
    case(
        "a number for a method",
        b'{"jsonrpc":"2.0","id":63,"method":12345}',
        extra=(
            b'{"jsonrpc":"2.0","id":63,"error":{"code":-32600,'
            b'"message":"Invalid Request: not a JSON-RPC 2.0 message"}}',
        ),
    ),
    case("a duplicated key", b'{"jsonrpc":"2.0","id":64,"id":65,"method":"ping"}', by=FAST),
    case("NaN for an id", b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}', extra=(UNREADABLE_ID,)),
    case("blank lines", b"", b"   \t"),
    case("a CRLF line end", request(66, "ping") + b"\r", by=FAST),
    case(
        "a lone surrogate id",
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        by=FAST,
        extra=(b'{"jsonrpc": "2.0", "id": "\\ud800", "result": {}}',),
    ),
    case("not UTF-8", b'{"jsonrpc":"2.0","id":"\xff\xfe","method":"ping"}', by=FAST),
    case("a bare CR between messages", request(67, "ping") + b"\r" + request(68, "ping"), by=FAST),
    case("last ping", request("last", "ping"), by=FAST),
)


@dataclass(frozen=True)
class Session:
    """One stdio connection: its opening lines, then `BODY` (or `body`)."""

    name: str
    opening: tuple[bytes, ...]
    catalog: str = "tools-only"
    plain_handshake: bool = True  # the opening answers the handshake, and the body's first
    opened: tuple[Any, ...] = ()  # else: the ids it answers (before handing over)
    refused: tuple[bytes, ...] = ()  # mcpgen's answers to opening lines the SDK is silent on
    body: tuple[Case, ...] = field(default=BODY)

    @property
    def lines(self) -> list[bytes]:
        return [*self.opening, *(raw for c in self.body for raw in c.lines)]

    @property
    def extra(self) -> list[bytes]:
        return [*self.refused, *(answer for c in self.body for answer in c.extra)]

    def answered_by(self, who: str) -> list[Any]:
        """The ids `who` answers in mcpgen's server (the fast path: after a plain handshake)."""
        if who == OPENING and not self.plain_handshake:
            return list(self.opened)
        if who == OPENING:
            return ["init", *(i for c in self.body if c.by == who for i in c.ids)]
        return [i for c in self.body if c.by == who for i in c.ids]


# Client capabilities the start-up answers accept as plain.
CLIENTS: tuple[dict[str, Any], ...] = (
    {"roots": {"listChanged": True}},
    {"roots": {}, "sampling": {}, "elicitation": {}},
    {"sampling": {"context": {}, "tools": {}}, "elicitation": {"form": {}, "url": {}}},
    {"experimental": {"vendor/x": {"on": [1, 2]}}, "roots": {"listChanged": False}},
)
_INIT = initialize("2025-11-25")
# Openings the start-up answers leave to the SDK: the SDK answers them, and the rest.
UNUSUAL: dict[str, Any] = {
    "roots not an object": initialize("2025-11-25", {"roots": 5}),
    "listChanged not a boolean": initialize("2025-11-25", {"roots": {"listChanged": "yes"}}),
    "sampling context not empty": initialize("2025-11-25", {"sampling": {"context": {"x": 1}}}),
    "tasks capability": initialize("2025-11-25", {"tasks": {}}),
    "extensions capability": initialize("2025-11-25", {"extensions": {}}),
    "capabilities a list": initialize("2025-11-25", []),
    "version a number": initialize(20251125),
    "no client version": {**_INIT, "params": {**_INIT["params"], "clientInfo": {"name": "j"}}},
    "client version a number": {
        **_INIT,
        "params": {**_INIT["params"], "clientInfo": {"name": "j", "version": 1}},
    },
    "params _meta": {**_INIT, "params": {**_INIT["params"], "_meta": {}}},
    "an extra param": {**_INIT, "params": {**_INIT["params"], "extra": 1}},
    "an extra member": {**_INIT, "extra": 1},
    "a float id": {**_INIT, "id": 1.0},
    "an id beyond 2**53": {**_INIT, "id": 2**60},
}
SHORT = tuple(c for c in BODY if c.by in (OPENING, FAST))[:8]


def sessions() -> list[Session]:
    """Every stdio session of the corpus."""
    found = [
        Session(f"initialize {v!r}, {catalog}", (line(initialize(v)), INITIALIZED), catalog)
        for v in VERSIONS
        for catalog in CATALOGS
    ]
    found += [
        Session(f"client {sorted(c)}", (line(initialize("2025-11-25", c)), INITIALIZED), body=SHORT)
        for c in CLIENTS
    ]
    found += [
        Session(
            f"unusual initialize: {name}",
            (line(m), INITIALIZED),
            plain_handshake=False,
            refused=(UNREADABLE_ID,) if isinstance(m["id"], float) else (),
        )
        for name, m in UNUSUAL.items()
    ]
    found += [
        Session("no initialize", (), plain_handshake=False),
        Session("no initialized", (line(_INIT),), plain_handshake=False, opened=("init",)),
        Session(
            "server/discover first",
            (request("d", "server/discover", {}),),
            plain_handshake=False,
        ),
    ]
    return found


# --- Streamable HTTP (stateless) ------------------------------------------------------------

ACCEPT_BOTH = "application/json, text/event-stream"


@dataclass(frozen=True)
class HttpCase:
    """One request to the MCP endpoint; `fast`: the HTTP fast path answers it."""

    name: str
    body: bytes | None
    headers: tuple[tuple[str, str], ...] = ()
    method: str = "POST"
    fast: bool = False
    fast_with_json: bool | None = None  # when answers are JSON bodies (None: as `fast`)

    def taken(self, json_response: bool) -> bool:
        """Whether the HTTP fast path answers it, with JSON bodies or SSE streams."""
        return (
            self.fast_with_json if json_response and self.fast_with_json is not None else self.fast
        )

    def sent_headers(self) -> dict[str, str]:
        """The request's headers: the usual ones, with `headers` over them ("" drops one)."""
        usual = {
            "Accept": ACCEPT_BOTH,
            "Content-Type": "application/json",
            "MCP-Protocol-Version": "2025-11-25",
        }
        return {k: v for k, v in {**usual, **dict(self.headers)}.items() if v}

    @property
    def id(self) -> Any:
        return json.loads(self.body or b"{}").get("id")


def _http(name: str, body: bytes | None, *, fast: bool = False, **headers: str) -> HttpCase:
    sent = tuple((k.replace("_", "-"), v) for k, v in headers.items())
    return HttpCase(name, body, sent, fast=fast)


def http_cases() -> list[HttpCase]:
    """Every HTTP request of the corpus, each on its own (the server is stateless)."""
    cases = [
        _http("plain call", call(1, "echo", {"text": "Hello", "times": 2}), fast=True),
        _http("call refused by the schema", call(2, "echo", {"text": "lower"}), fast=True),
        _http("structured result", call(3, "structured", {"a": 1}), fast=True),
        _http("result breaking its schema", call(4, "breaks", {}), fast=True),
        _http("raising handler", call(5, "raises", {}), fast=True),
        _http("text with a lone surrogate", call(6, "surrogate", {}), fast=True),
        _http("call without arguments", call(7, "structured"), fast=True),
        _http("tools/list", request("l", "tools/list"), fast=True),
        _http("ping", request(8, "ping"), fast=True),
        _http("ping, empty params", request(9, "ping", {}), fast=True),
        _http("an empty string id", request("", "ping"), fast=True),
        _http("an id beyond 2**53", request(2**60, "ping"), fast=True),
        _http("unknown tool", call(10, "nope", {})),
        _http("handler with a context", call(11, "context", {})),
        _http("call with _meta", call(12, "echo", {"text": "A"}, _meta={"progressToken": 1})),
        _http("call with an extra param", call(13, "echo", {"text": "A"}, extra=1)),
        _http("ping with params", request(14, "ping", {"x": 1})),
        _http("tools/list with a cursor", request(15, "tools/list", {"cursor": "x"})),
        _http("unknown method", request(16, "no/such/method")),
        _http("resources/list", request(17, "resources/list")),
        _http("a notification", INITIALIZED),
        _http("an answer to nothing", line({"jsonrpc": "2.0", "id": 18, "result": {}})),
        _http("a batch", line([json.loads(request(19, "ping"))])),
        _http("not JSON", b"{nope"),
        _http("not JSON-RPC", b'{"id": 20, "method": "ping"}'),
        _http("a float id", request(1.5, "ping")),
        _http("a number for a method", b'{"jsonrpc":"2.0","id":21,"method":12345}'),
        _http("not UTF-8", b'{"jsonrpc":"2.0","id":"\xff","method":"ping"}'),
        _http("no body", b""),
        _http("no protocol version", request(22, "ping"), MCP_Protocol_Version="", fast=True),
        _http("unknown version", request(23, "ping"), MCP_Protocol_Version="1999-01-01"),
        _http("foreign Host", request(24, "ping"), Host="evil.example"),
        _http("foreign Origin", request(25, "ping"), Origin="http://evil.example"),
        HttpCase(
            "no SSE in Accept",
            request(26, "ping"),
            (("Accept", "application/json"),),
            fast_with_json=True,  # all a JSON answer needs
        ),
        _http("any type in Accept", request(27, "ping"), Accept="*/*", fast=True),
        _http("text/plain body", request(28, "ping"), Content_Type="text/plain"),
        _http(
            "a charset",
            request(29, "ping"),
            Content_Type="application/json; charset=utf-8",
            fast=True,
        ),
        _http("a session id", request(30, "ping"), Mcp_Session_Id="abc"),
        HttpCase("GET", None, method="GET"),
        HttpCase("DELETE", None, method="DELETE"),
        HttpCase("PUT", request(31, "ping"), method="PUT"),
    ]
    for number, version in enumerate(v for v in VERSIONS if v):  # "": no version header, above
        cases.append(
            _http(f"initialize {version!r}", line(initialize(version, request_id=40 + number)))
        )
        fast = version in HANDSHAKE_PROTOCOL_VERSIONS
        cases.append(
            _http(
                f"a call at {version!r}",
                call(50 + number, "structured", {"a": 1}),
                MCP_Protocol_Version=str(version),
                fast=fast,
            )
        )
    return cases
