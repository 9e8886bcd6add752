"""Start-up: the command line, and on stdio the first answers, before the SDK is loaded.

Importing the SDK's server stack takes most of a second, and a client's first requests need
none of it: the answer to a plain `initialize` is fixed by the manifest and the protocol
version, `tools/list` is the tool table verbatim, `ping` is empty. So on stdio the server
loads everything else (the SDK, pydantic, the handlers' table: `serve` and the project's
`server` module) on a worker thread, and meanwhile answers those requests itself from this
module, which imports only the standard library. As soon as everything is loaded, or earlier
if a request needs it (any other method, anything unusual in a request, a line that is not a
plain message), the SDK takes over: the `initialize` request and `notifications/initialized`
answered here are replayed into it, its answer to the replayed `initialize` is dropped (and
compared with the one sent), and every line not answered yet goes to it, in order. From then
on the session is the SDK's, as if it had been from the start.

The answers here are byte for byte the SDK's (a differential test runs both at every protocol
version the SDK knows), and are given only under the SDK release they were proven with
(`VERIFIED_SDK`); under any other, or where the platform cannot wait on a pipe and the worker
thread at once (Windows), the server loads first and the SDK answers everything.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import select
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from .errors import Redactor, redact_logs
from .http_options import MAX_BYTES, add_http_arguments, seconds, whole
from .table import as_plain_json, encode_json

if TYPE_CHECKING:
    from types import ModuleType

    from .catalog import Catalog
    from .runtime import Dispatcher, ToolEntry

logger = logging.getLogger(__name__)

DEBUG_ENV = "MCP_SERVER_DEBUG"
DEFAULT_WORKERS = 16
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024
STATE_SECRET_ENV = "MCP_STATE_SECRET"
DEFAULT_STATE_TTL = 600.0  # seconds a client has to answer before the state expires
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_WORKERS = 4096

# The SDK releases whose handshake this module reproduces, and what it negotiates there
# (`mcp.types.version`: HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION).
VERIFIED_SDK = ("2.3.",)
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_HANDSHAKE = "2025-11-25"
# What a catalog can offer besides tools, as `ServerInfo.offers` names it.
OFFERS = ("resources", "subscribe", "prompts", "completions")

CHUNK = 1 << 16


@dataclass(frozen=True)
class ServerInfo:
    """What the manifest says about the server itself."""

    name: str
    version: str
    script: str
    description: str
    instructions: str | None = None
    # Variables the manifest marks as required and gives no default: (name, description).
    required_env: tuple[tuple[str, str], ...] = ()
    # Defaults the manifest gives, applied when the variable is unset.
    env_defaults: Mapping[str, str] = field(default_factory=dict)
    # Variables whose values never appear in a reply or a log line.
    secret_env: tuple[str, ...] = ()
    env: tuple[str, ...] = ()  # every variable the manifest lists, for `Context.env`
    debug: bool = False  # the manifest's `debug`: full exception messages to the client
    timeout: float | None = None  # the manifest's default per-call timeout
    catalog: Catalog | None = None  # resources, templates and prompts, if any
    # What the catalog offers (of `OFFERS`), known before the catalog itself is loaded: the
    # capabilities the handshake answered at start-up declares.
    offers: tuple[str, ...] = ()


class StateSecretError(ValueError):
    """The configured secret is missing or too weak to start with."""


def state_secret(secret_env: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The secret that seals request state ("" for a random key per process)."""
    environ = os.environ if environ is None else environ
    name = secret_env or STATE_SECRET_ENV
    secret = environ.get(name, "")
    if not secret:
        if secret_env:
            raise StateSecretError(f"--state-secret-env names {name}, which is unset or empty")
        return ""
    if len(secret.encode()) < 32:
        raise StateSecretError(
            f"{name} must hold at least 32 bytes of random secret "
            '(python -c "import secrets; print(secrets.token_hex(32))")'
        )
    return secret


# --- the command line -------------------------------------------------------------------------


class OneLineParser(argparse.ArgumentParser):
    """A mistaken command line is one line on stderr and exit status 2: the usage summary
    argparse prints first would bury it (`--help` still shows it)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def parse_args(info: ServerInfo, argv: Sequence[str] | None) -> argparse.Namespace:
    parser = OneLineParser(prog=info.script, description=info.description)
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP only (default: %(default)s)")
    parser.add_argument(
        "--port", type=whole(1, 65535), default=8000, help="HTTP only (default: %(default)s)"
    )
    parser.add_argument("--path", default="/mcp", help="HTTP only (default: %(default)s)")
    parser.add_argument(
        "--log-level",
        type=str.upper,
        choices=LOG_LEVELS,
        default="WARNING",
        help="stderr log level, one of %(choices)s (default: %(default)s)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=None,
        help=f"send unexpected exceptions' messages to the client (also {DEBUG_ENV}=1)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds(zero=True),
        default=None,
        help="seconds a call may run, for tools without their own `timeout`; 0: no limit "
        f"(default: the manifest's `timeout`, else {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--workers",
        type=whole(1, MAX_WORKERS),
        default=DEFAULT_WORKERS,
        help="threads for sync handlers; calls beyond are refused (default: %(default)s)",
    )
    parser.add_argument(
        "--max-result-bytes",
        type=whole(0, MAX_BYTES),
        default=DEFAULT_MAX_RESULT_BYTES,
        help="larger tool results become error results; 0: no limit (default: %(default)s)",
    )
    parser.add_argument(
        "--state-secret-env",
        metavar="VAR",
        default=None,
        help="environment variable holding the secret (>= 32 bytes) that seals the request "
        "state of questions to the client; instances behind one address must share it "
        f"(default: {STATE_SECRET_ENV} if set, else a random key per process)",
    )
    parser.add_argument(
        "--state-ttl",
        type=seconds(),
        default=DEFAULT_STATE_TTL,
        help="seconds a client has to answer a question before its state expires "
        "(default: %(default)g)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {info.version}")
    add_http_arguments(parser)
    return parser.parse_args(argv)


def apply_environment_defaults(defaults: Mapping[str, str]) -> None:
    for name, default in defaults.items():
        os.environ.setdefault(name, default)


def missing_environment(required: Sequence[tuple[str, str]]) -> list[str]:
    """Required variables that are unset or empty, described for the error message."""
    return [
        f"{name} ({description})" if description else name
        for name, description in required
        if not os.environ.get(name)
    ]


def prepare(info: ServerInfo, argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, logging and the environment; exits when the server cannot start."""
    args = parse_args(info, argv)
    # Logs go to stderr: on stdio, stdout carries the protocol.
    logging.basicConfig(level=args.log_level, stream=sys.stderr)
    apply_environment_defaults(info.env_defaults)
    missing = missing_environment(info.required_env)
    if missing:
        sys.exit(f"{info.name}: missing required environment variables: {', '.join(missing)}")
    try:
        state_secret(args.state_secret_env)
    except StateSecretError as exc:
        sys.exit(f"{info.name}: {exc}")
    redact_logs(Redactor.from_environment(info.secret_env))
    return args


# --- the entry point --------------------------------------------------------------------------

Loaded = tuple["ModuleType", ServerInfo, "Dispatcher"]


def main(
    info: ServerInfo,
    tools: Sequence[ToolEntry],
    load: Callable[[], tuple[ServerInfo, Dispatcher]],
    argv: Sequence[str] | None = None,
) -> None:
    """Console script entry point: `load` imports the server (the SDK with it) and returns
    its full `ServerInfo` and dispatcher; `tools` is its tool table, loaded already."""
    args = prepare(info, argv)
    if args.transport == "http" or not can_boot():
        serve, full_info, dispatcher = _load(load)
        serve.run(full_info, dispatcher, args)
        return
    with claimed_stdio() as (read_fd, write_fd):
        warm_up = WarmUp(load)
        opening = Opening(info, tools, args.max_body_bytes)
        try:
            rest = opening.serve(read_fd, write_fd, warm_up)
        except KeyboardInterrupt:  # as in the SDK's session: a quiet end
            rest = None
        finally:
            opening.close()
        try:
            serve, full_info, dispatcher = warm_up.result()
        except Exception:
            logger.critical("%s: cannot serve: loading the server failed", info.name, exc_info=True)
            sys.exit(1)
        if rest is None:  # the input ended, and everything it asked is answered
            return
        serve.run(full_info, dispatcher, args, fds=(read_fd, write_fd), opening=rest)


def can_boot() -> bool:
    """True where the start-up answers can be given: a platform that can wait on a pipe and
    a wake-up pipe at once, and the SDK release the answers were proven with."""
    return os.name == "posix" and sdk_verified()


def sdk_verified() -> bool:
    """Whether the installed `mcp` is a `VERIFIED_SDK` release, read without importing it:
    its `.dist-info` beside the package, else the installed distributions' metadata."""
    try:
        import importlib.util  # noqa: PLC0415

        spec = importlib.util.find_spec("mcp")
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.submodule_search_locations:
        return False
    for location in spec.submodule_search_locations:
        site = os.path.dirname(os.path.abspath(location))
        try:
            names = os.listdir(site)
        except OSError:
            continue
        found = [n for n in names if n.startswith("mcp-") and n.endswith(".dist-info")]
        if len(found) == 1:
            return found[0][len("mcp-") :].startswith(VERIFIED_SDK)
    try:
        from importlib import metadata  # noqa: PLC0415

        return metadata.version("mcp").startswith(VERIFIED_SDK)
    except Exception:  # no metadata at all: run from a source tree
        return False


def _load(load: Callable[[], tuple[ServerInfo, Dispatcher]]) -> Loaded:
    from . import serve  # noqa: PLC0415  (the SDK's server stack: the slow part)

    info, dispatcher = load()
    serve.warm_up()
    return serve, info, dispatcher


class WarmUp:
    """`load`, run once on a worker thread from the start; `fd` becomes readable when done."""

    def __init__(self, load: Callable[[], tuple[ServerInfo, Dispatcher]]) -> None:
        self._load = load
        self._done = threading.Event()
        self._result: Loaded | None = None
        self._error: BaseException | None = None
        self.fd, self._wake = os.pipe()
        # Not a daemon: a server whose input ends meanwhile exits once the import is done,
        # instead of being torn down in the middle of it.
        self._thread = threading.Thread(target=self._run, name="warm-up")
        self._thread.start()

    def _run(self) -> None:
        try:
            self._result = _load(self._load)
        except BaseException as exc:  # reported where it is waited for, on the main thread
            self._error = exc
        finally:
            self._done.set()
            with contextlib.suppress(OSError):
                os.write(self._wake, b"!")

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def result(self) -> Loaded:
        self._done.wait()
        os.close(self.fd)
        os.close(self._wake)
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


@contextlib.contextmanager
def claimed_stdio() -> Iterator[tuple[int, int]]:
    """Private copies of fd 0 and fd 1 for the protocol, for the duration.

    Meanwhile fd 0 reads the null device and fd 1 (and `sys.stdout`) writes to stderr, so a
    handler's `print`, a C library or a child process cannot corrupt the protocol stream.
    """
    sys.stdout.flush()
    read_fd, write_fd = os.dup(0), os.dup(1)  # not inherited by children (PEP 446)
    saved_stdout = sys.stdout
    try:
        _point(0, os.open(os.devnull, os.O_RDONLY))
        try:
            os.dup2(2, 1)
        except OSError:  # no stderr: stray output is dropped instead
            _point(1, os.open(os.devnull, os.O_WRONLY))
        sys.stdout = sys.stderr
        yield read_fd, write_fd
    finally:
        sys.stdout = saved_stdout
        for fd, private in ((0, read_fd), (1, write_fd)):
            with contextlib.suppress(OSError):
                os.dup2(private, fd)
            os.close(private)


def _point(fd: int, target: int) -> None:
    os.dup2(target, fd)
    os.close(target)


# --- the opening of a stdio session -----------------------------------------------------------


@dataclass
class Rest:
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

    def serve(self, read_fd: int, write_fd: int, warm_up: WarmUp) -> Rest | None:
        """Answer until the SDK is loaded (a `Rest` for it) or the input ends with nothing
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

    def _rest(self, buffer: bytearray, ended: bool) -> Rest:
        return Rest(
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
        """Stop watching for SIGTERM; one that came meanwhile is kept in `Rest.terminated`,
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
        version = requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE
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
