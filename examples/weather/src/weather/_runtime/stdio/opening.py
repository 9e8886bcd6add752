# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The opening of a stdio session: its first answers, given before the SDK is loaded.

Importing the SDK's server stack takes most of a second, and a client's first requests need
none of it: the answer to a plain `initialize` is fixed by the manifest and the protocol
version, `tools/list` is the tool table verbatim, `ping` is empty. So on stdio the server
loads everything else (the SDK, pydantic, the handlers' table: `entry.serve` and the
project's `server` module) on a worker thread, and meanwhile answers those requests itself
from this module, which imports only the standard library and `core` modules that do the
same. As soon as everything is loaded, or earlier if a request needs it (any other method,
anything unusual in a request, a line that is not a plain message), the SDK takes over: the
`initialize` request and `notifications/initialized` answered here are replayed into it,
its answer to the replayed `initialize` is dropped (and compared with the one sent), and
every line not answered yet goes to it, in order. From then on the session is the SDK's, as
if it had been from the start.

The answers here are byte for byte the SDK's (the differential tests run the SDK's own
`stdio_server` beside it at every protocol version the SDK knows), and are given only where
`core.sdk_contract` says the fast paths are on: under the SDK releases they were proven with,
on a platform that can wait on a pipe and the worker thread at once. Elsewhere the server
loads first and the SDK answers everything.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..core.sdk_contract import VERIFIED_PROTOCOLS
from ..core.server_info import ServerInfo
from ..core.task_support import HANDSHAKE_CAPABILITY, runs_tasks
from ..core.tool_table import as_plain_json, encode_json

if TYPE_CHECKING:
    from ..dispatch.dispatcher import ToolEntry

CHUNK = 1 << 16


class Loading(Protocol):
    """The server loading meanwhile: `fd` becomes readable when `done`."""

    @property
    def fd(self) -> int: ...
    @property
    def done(self) -> bool: ...


@dataclass
class Handover:
    """What the opening leaves the SDK's session: the handshake to replay, and the input not
    answered yet."""

    replay: list[bytes]  # the `initialize` request, then `notifications/initialized`, if any
    replay_id: str | int | None  # the replayed `initialize`'s id: its answer is dropped
    answered: bytes  # the line this module sent for it, which the SDK's must equal
    unread: bytes  # input read and not answered, from the first line the SDK must answer
    ended: bool  # the input ended (end of file, or SIGTERM) after `unread`
    terminated: Callable[[], bool]  # whether SIGTERM came (until the SDK's session watches)


_NEW, _INITIALIZING, _READY = "new", "initializing", "ready"
_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_NOTIFICATION_KEYS = frozenset({"jsonrpc", "method", "params"})
_INIT_KEYS = frozenset({"protocolVersion", "capabilities", "clientInfo"})
_CLIENT_INFO_KEYS = frozenset({"name", "version", "title"})
# Client capabilities the handshake answered here accepts, each with what it may hold (the
# SDK would refuse other values of these, and may treat other capabilities differently).
_EMPTY_OBJECTS = {
    "sampling": frozenset({"context", "tools"}),
    "elicitation": frozenset({"form", "url"}),
}
_ID_LIMIT = 2**53  # larger integers are left to the SDK's parser


class _Unplain(ValueError):
    """A line this module does not answer: the SDK does."""


class Opening:
    """Answers the opening requests of a stdio session until the SDK is loaded or needed."""

    def __init__(self, info: ServerInfo, tools: Sequence[ToolEntry], max_line: int) -> None:
        self._info = info
        self._tools = tools
        self._max_line = max_line
        self._state = _NEW
        self._replay: list[bytes] = []
        self._replay_id: str | int | None = None
        self._answered = b""
        self._tools_json: bytes | None = None
        self._results: dict[str, bytes] = {}
        self._terminated = False
        self._wake_read, self._wake_write = os.pipe()
        for fd in (self._wake_read, self._wake_write):
            os.set_blocking(fd, False)
        self._previous_wakeup = -1
        self._previous_handler: Any = None
        self._watching = False

    # --- the loop ---------------------------------------------------------------------------

    def serve(self, read_fd: int, write_fd: int, warm_up: Loading) -> Handover | None:
        """Answer until the SDK is loaded (a `Handover` for it) or the input ends with nothing
        left that needs it (None)."""
        self._watch_sigterm()
        buffer = bytearray()
        ended = False
        while not ended and not warm_up.done and not self._terminated:
            ready, _, _ = select.select([read_fd, warm_up.fd, self._wake_read], [], [])
            if self._wake_read in ready:  # a signal came: drained, or the loop would spin
                with contextlib.suppress(OSError):
                    os.read(self._wake_read, 512)
            if read_fd not in ready:
                continue  # the warm-up ended, or a signal came: the loop's test says which
            chunk = os.read(read_fd, CHUNK)
            ended = not chunk
            buffer += chunk
            while (end := buffer.find(b"\n")) >= 0:
                answer = self._answer(bytes(buffer[:end]))
                if answer is None:
                    return self._rest(buffer, ended)
                del buffer[: end + 1]
                if answer:
                    _write_all(write_fd, answer)
            if len(buffer) > self._max_line:
                return self._rest(buffer, ended)
        if self._terminated:  # as the SDK's session does: what is not answered yet never is
            return None
        if ended and not buffer.strip():
            return None
        return self._rest(buffer, ended)

    def _rest(self, buffer: bytearray, ended: bool) -> Handover:
        return Handover(
            replay=self._replay,
            replay_id=self._replay_id,
            answered=self._answered,
            unread=bytes(buffer),
            ended=ended,
            terminated=lambda: self._terminated,
        )

    def _watch_sigterm(self) -> None:
        """SIGTERM ends the input, as in the SDK's session; a second one kills at once."""

        def first_sigterm(signum: int, frame: object) -> None:
            self._terminated = True
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

        try:
            self._previous_handler = signal.signal(signal.SIGTERM, first_sigterm)
            self._previous_wakeup = signal.set_wakeup_fd(self._wake_write)
        except (ValueError, OSError):  # not the main thread
            return
        self._watching = True

    def close(self) -> None:
        """Stop watching for SIGTERM; one that came meanwhile is kept in `Handover.terminated`,
        and the handler stays until the SDK's session installs its own."""
        self._tools_json, self._results = None, {}  # the SDK's session has its own
        if self._watching:
            with contextlib.suppress(ValueError, OSError):
                signal.set_wakeup_fd(self._previous_wakeup)
        for fd in (self._wake_read, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)

    # --- the answers ------------------------------------------------------------------------

    def _answer(self, line: bytes) -> bytes | None:
        """The answer line to `line`, b"" for none, None when the SDK must answer it."""
        if not line.strip():
            return b""
        try:
            return self._answer_message(_parsed(line), line)
        except _Unplain:
            return None

    def _answer_message(self, message: dict[str, Any], line: bytes) -> bytes:
        if message.get("jsonrpc") != "2.0" or type(message.get("method")) is not str:
            raise _Unplain
        method = message["method"]
        if "id" not in message:
            if (
                method == "notifications/initialized"
                and self._state == _INITIALIZING
                and _NOTIFICATION_KEYS.issuperset(message)
                and _empty(message.get("params", {}))
            ):
                self._state = _READY
                self._replay.append(line)
                return b""
            raise _Unplain
        request_id = message["id"]
        if not _plain_id(request_id) or not _REQUEST_KEYS.issuperset(message):
            raise _Unplain
        if method == "initialize" and self._state == _NEW:
            result = self._initialize_result(_protocol_version(message.get("params")))
            answer = _response(request_id, result)
            self._state, self._replay_id, self._answered = _INITIALIZING, request_id, answer
            self._replay.append(line)
            return answer
        if self._state != _READY or not _empty(message.get("params", {})):
            raise _Unplain
        if method == "ping":
            return _response(request_id, b"{}")
        if method == "tools/list":
            return _response(request_id, b'{"tools":' + self._tools_list() + b"}")
        raise _Unplain

    def _initialize_result(self, requested: str) -> bytes:
        """The SDK's `InitializeResult` for this server at the negotiated version: its
        per-version serialiser sorts every object's keys, and drops what is unset."""
        known = VERIFIED_PROTOCOLS  # the installed SDK's, while the opening answers
        version = requested if requested in known.handshake else known.latest_handshake
        cached = self._results.get(version)
        if cached is not None:
            return cached
        info = self._info
        offers = set(info.offers)
        capabilities: dict[str, Any] = {"logging": {}, "tools": {"listChanged": False}}
        if "prompts" in offers:
            capabilities["prompts"] = {"listChanged": False}
        if "resources" in offers:
            subscribe = "subscribe" in offers
            capabilities["resources"] = {"listChanged": False, "subscribe": subscribe}
        if "completions" in offers:
            capabilities["completions"] = {}
        if runs_tasks([t.definition for t in self._tools]):
            capabilities["tasks"] = HANDSHAKE_CAPABILITY
        result: dict[str, Any] = {
            "capabilities": capabilities,
            "protocolVersion": version,
            "serverInfo": {"name": info.name, "version": info.version},
        }
        if info.instructions is not None:
            result["instructions"] = info.instructions
        try:
            encoded = json.dumps(
                result, ensure_ascii=False, separators=(",", ":"), sort_keys=True
            ).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: the SDK's serialiser decides
            raise _Unplain from None
        self._results[version] = encoded
        return encoded

    def _tools_list(self) -> bytes:
        if self._tools_json is None:
            self._tools_json = encode_json([as_plain_json(t.definition) for t in self._tools])
        return self._tools_json


def _response(request_id: str | int, result: bytes) -> bytes:
    head = b'{"jsonrpc":"2.0","id":' + encode_json(request_id) + b',"result":'
    return head + result + b"}\n"


def _parsed(line: bytes) -> dict[str, Any]:
    """The line's JSON object, read as strictly as the SDK reads it, else `_Unplain`."""
    if b"\\ud" in line.lower():  # a surrogate escape: the SDK's parser is stricter than json's
        raise _Unplain
    try:
        message = json.loads(line, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise _Unplain from None
    if type(message) is not dict:
        raise _Unplain
    return message


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Unplain
    return result


def _no_constant(name: str) -> None:
    raise _Unplain


def _plain_id(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return type(value) is str or (isinstance(value, int) and -_ID_LIMIT < value < _ID_LIMIT)


def _empty(params: object) -> bool:
    return type(params) is dict and not params


def _protocol_version(params: object) -> str:
    """The version a plain `initialize` asks for, else `_Unplain`."""
    if type(params) is not dict or set(params) != _INIT_KEYS:
        raise _Unplain
    version, capabilities = params["protocolVersion"], params["capabilities"]
    client = params["clientInfo"]
    if type(version) is not str or type(client) is not dict or type(capabilities) is not dict:
        raise _Unplain
    if not _CLIENT_INFO_KEYS.issuperset(client) or not {"name", "version"} <= set(client):
        raise _Unplain
    if any(type(value) is not str for value in client.values()):
        raise _Unplain
    if not all(_plain_capability(name, value) for name, value in capabilities.items()):
        raise _Unplain
    return version


def _plain_capability(name: str, value: object) -> bool:
    if type(value) is not dict:
        return False
    if name == "roots":
        return {"listChanged"}.issuperset(value) and all(type(v) is bool for v in value.values())
    if name == "experimental":
        return all(type(v) is dict for v in value.values())
    known = _EMPTY_OBJECTS.get(name)
    return (
        known is not None
        and known.issuperset(value)
        and all(type(v) is dict and not v for v in value.values())
    )


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
