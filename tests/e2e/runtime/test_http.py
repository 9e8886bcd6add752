"""The HTTP transport on a real server process, 127.0.0.1 only: every attack refused."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from mcpgen.runtime.http.options import HttpOptions
from mcpgen.runtime.http.transport import transport_security
from tests.support.runtime.http_wire import SERVER, Answer, free_port, http_server

TOKEN = "t0ken-for-the-tests-0123456789"
TOKEN_ARGS = ["--auth-token-env", "MCP_TEST_TOKEN"]
TOKEN_ENV = {"MCP_TEST_TOKEN": TOKEN}


def test_healthz_needs_no_auth_and_opens_no_session() -> None:
    with http_server(TOKEN_ARGS, TOKEN_ENV) as server:
        answer = server.request("GET", "/healthz")
    assert answer.status == 200 and json.loads(answer.body) == {"status": "ok"}
    assert "mcp-session-id" not in answer.headers


@pytest.mark.parametrize("bind", ["127.0.0.1", "0.0.0.0"])
def test_foreign_host_and_origin_are_refused_on_any_bind(bind: str) -> None:
    with http_server(TOKEN_ARGS, TOKEN_ENV, host=bind) as server:
        server.headers = {"authorization": f"Bearer {TOKEN}"}
        assert server.open_session(host="evil.example").status == 421
        assert server.open_session(origin="http://evil.example").status == 403
        assert server.open_session(origin=f"http://localhost:{server.port}").status == 200
        assert server.open_session().status == 200


def test_an_allowed_host_is_accepted() -> None:
    args = [*TOKEN_ARGS, "--allowed-host", "mcp.example.com"]
    with http_server(args, TOKEN_ENV, host="0.0.0.0") as server:
        server.headers = {"authorization": f"Bearer {TOKEN}"}
        assert server.open_session(host="mcp.example.com").status == 200
        assert server.open_session(origin="https://mcp.example.com").status == 200
        assert server.open_session(host="other.example.com").status == 421


def test_bearer_token_missing_or_wrong_is_401_right_is_200() -> None:
    with http_server(TOKEN_ARGS, TOKEN_ENV) as server:
        missing = server.open_session()
        wrong = server.open_session(authorization=f"Bearer {TOKEN[:-1]}x")
        right = server.open_session(authorization=f"Bearer {TOKEN}")
    for refused in (missing, wrong):
        assert refused.status == 401
        assert refused.headers["www-authenticate"].startswith("Bearer ")
        assert TOKEN not in refused.body.decode()
    assert right.status == 200


def test_a_non_loopback_bind_without_auth_refuses_to_start() -> None:
    port = str(free_port())
    done = subprocess.run(
        [sys.executable, str(SERVER), "--transport", "http", "--host", "0.0.0.0", "--port", port],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "refusing to serve 0.0.0.0 without authentication" in lines[0]
    assert "--auth-token-env" in lines[0] and "--allow-unauthenticated" in lines[0]


def test_allow_unauthenticated_insists() -> None:
    with http_server(["--allow-unauthenticated"], host="0.0.0.0") as server:
        assert server.open_session().status == 200


def test_an_8_mib_body_is_413_with_the_requests_id() -> None:
    with http_server() as server:
        big = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "pad": "' + b"x" * (8 << 20) + b'"}'
        headers = {"content-type": "application/json", "accept": "application/json"}
        answer = server.request("POST", body=big, headers=headers)
        assert answer.status == 413
        assert answer.json()["id"] == 1 and answer.json()["error"]["code"] == -32600
        assert server.open_session().status == 200


def test_a_chunked_body_over_the_limit_is_413_with_the_requests_id() -> None:
    with http_server(["--max-body-bytes", "10000"]) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            head = (
                "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Accept: application/json, text/event-stream\r\n"
                "Transfer-Encoding: chunked\r\n\r\n"
            )
            raw.sendall(head.encode())
            start = b'{"jsonrpc":"2.0","id":"big-one","method":"ping","params":{"p":"'
            for piece in (start, b"x" * 6000, b"x" * 6000):
                raw.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
            reply = b""
            while b"}}" not in reply:
                data = raw.recv(65536)
                if not data:
                    break
                reply += data
        assert reply.startswith(b"HTTP/1.1 413")
        body = json.loads(reply.split(b"\r\n\r\n", 1)[1])
        assert body["id"] == "big-one" and "longer than 10000 bytes" in body["error"]["message"]


def test_a_body_sent_too_slowly_is_408() -> None:
    with http_server(["--read-timeout", "0.5"]) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            head = (
                "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Accept: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            raw.sendall(head.encode())
            reply = raw.recv(1000).decode()
        assert reply.startswith("HTTP/1.1 408")


def test_sessions_per_client_are_capped_and_freed_by_delete_or_idle_expiry() -> None:
    args = ["--max-sessions-per-client", "3", "--session-idle-timeout", "1"]
    with http_server(args) as server:
        opened = [server.open_session() for _ in range(3)]
        assert all(a.status == 200 for a in opened)
        refused = server.open_session()
        assert refused.status == 429 and "too many open sessions" in refused.body.decode()
        deleted = server.request("DELETE", headers={"mcp-session-id": _sid(opened[0])})
        assert deleted.status in (200, 204)
        assert server.open_session().status == 200
        time.sleep(2)  # all idle: expired
        assert all(server.open_session().status == 200 for _ in range(3))


def test_total_sessions_are_capped() -> None:
    with http_server(["--max-sessions", "2", "--max-sessions-per-client", "0"]) as server:
        assert [server.open_session().status for _ in range(3)] == [200, 200, 503]


def test_stateless_and_json_response_modes() -> None:
    with http_server(["--stateless", "--json-response"]) as server:
        answer = server.open_session()
        assert answer.status == 200 and "mcp-session-id" not in answer.headers
        assert answer.headers["content-type"].startswith("application/json")
        assert server.call("raise_it", {"what": "datetime"})["isError"] is False


@pytest.mark.parametrize("what", ["system-exit", "generator-exit", "keyboard-interrupt"])
def test_base_exceptions_leave_the_http_server_serving(what: str) -> None:
    with http_server(["--stateless", "--json-response"]) as server:
        assert server.call("raise_it", {"what": what})["isError"] is True
        assert server.call("exit_async", {})["isError"] is True
        assert server.call("raise_it", {"what": "datetime"})["isError"] is False
        assert server.request("GET", "/healthz").status == 200


def test_sigterm_lets_calls_in_flight_finish_and_exits_0() -> None:
    with http_server(["--timeout", "20", "--shutdown-grace", "10"]) as server:
        session = _sid(server.open_session())
        results: list[Any] = []

        def one_call() -> None:
            results.append(server.call("sleep_untimed", {"seconds": 1.5}, session=session))

        callers = [threading.Thread(target=one_call) for _ in range(3)]
        for caller in callers:
            caller.start()
        time.sleep(0.5)
        server.process.send_signal(15)
        time.sleep(0.3)
        assert server.open_session().status == 503  # draining: nothing new
        for caller in callers:
            caller.join(timeout=20)
        assert server.process.wait(timeout=20) == 0
    assert len(results) == 3 and all(r["content"][0]["text"] == "slept" for r in results)


def test_default_allow_list_names_loopback_and_the_bind_address() -> None:
    settings = transport_security(HttpOptions(host="10.1.2.3", allowed_hosts=("a.example:443",)))
    assert "127.0.0.1:*" in settings.allowed_hosts and "10.1.2.3:*" in settings.allowed_hosts
    assert (
        "a.example:443" in settings.allowed_hosts
        and "a.example:443:*" not in settings.allowed_hosts
    )
    assert "https://a.example:443" in settings.allowed_origins


def _sid(answer: Answer) -> str:
    return answer.headers["mcp-session-id"]


@pytest.mark.parametrize("mode", ["none", "bearer"])
def test_hostile_bodies_get_a_4xx_in_every_auth_mode(mode: str) -> None:
    from tests.e2e.runtime.test_oauth import HOSTILE_BODIES

    args, env = (TOKEN_ARGS, TOKEN_ENV) if mode == "bearer" else ([], {})
    with http_server(args, env) as server:
        headers = {"content-type": "application/json", "accept": "application/json"}
        for bearer in [None, TOKEN] if mode == "bearer" else [None]:
            sent = {**headers, **({"authorization": f"Bearer {bearer}"} if bearer else {})}
            for name, body in HOSTILE_BODIES.items():
                answer = server.request("POST", body=body, headers=sent)
                assert 400 <= answer.status < 500, (name, answer.status, answer.body[:200])
        assert server.stop() == 0
        assert server.process.stderr is not None
        assert b"Traceback" not in server.process.stderr.read()


def _closed_within(raw: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before it closed `raw`, or None if it is still open."""
    raw.settimeout(seconds)
    received = b""
    try:
        while data := raw.recv(4096):
            received += data
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return received


PARTIAL_HEADS = {
    "nothing": b"",
    "half-a-request-line": b"POST /mc",
    "headers-without-end": b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl",
}


@pytest.mark.parametrize("head", PARTIAL_HEADS.values(), ids=PARTIAL_HEADS.keys())
def test_a_connection_that_never_finishes_its_head_is_closed(head: bytes) -> None:
    with http_server(["--header-timeout", "1"]) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(head)
            received = _closed_within(raw, 10)
        assert received is not None, "still open 10 s after a 1 s deadline"
        assert received == b"" or received.startswith(b"HTTP/1.1 408")


def test_a_kept_alive_connection_that_starts_a_head_and_stalls_is_closed() -> None:
    with http_server(["--header-timeout", "1", "--idle-timeout", "60"]) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert raw.recv(4096).startswith(b"HTTP/1.1 200")
            try:
                for byte in b"GET /hea":  # a byte at a time: each one stopped uvicorn's timer
                    raw.sendall(bytes([byte]))
                    time.sleep(0.2)
            except (BrokenPipeError, ConnectionResetError):
                return  # closed already
            received = _closed_within(raw, 10)
        assert received is not None and (received == b"" or received.startswith(b"HTTP/1.1 408"))


def test_5000_slowloris_connections_neither_stay_nor_block_a_real_client() -> None:
    with http_server(["--header-timeout", "3"]) as server:
        attackers: list[socket.socket] = []
        try:
            for _ in range(5000):
                raw = socket.create_connection(("127.0.0.1", server.port), timeout=10)
                raw.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                attackers.append(raw)
            # Every socket is open, or waiting for accept; a client that sends at once is served.
            assert server.request("GET", "/healthz", timeout=10).status == 200
            session = server.open_session()
            assert session.status == 200
            result = server.call("raise_it", {"what": "datetime"}, session=_sid(session))
            assert result["isError"] is False
            deadline = time.monotonic() + 30
            for raw in attackers:
                assert _closed_within(raw, max(0.1, deadline - time.monotonic())) is not None
        finally:
            for raw in attackers:
                raw.close()


@pytest.mark.parametrize(
    "mode", [[], ["--stateless", "--json-response"]], ids=["session", "stateless"]
)
def test_while_draining_a_session_still_lists_and_pings_but_starts_no_call(mode: list[str]) -> None:
    with http_server(["--timeout", "20", "--shutdown-grace", "10", *mode]) as server:
        session = server.open_session().headers.get("mcp-session-id")
        results: list[Any] = []
        slow = threading.Thread(
            target=lambda: results.append(
                server.call("sleep_untimed", {"seconds": 3}, session=session)
            )
        )
        slow.start()
        time.sleep(0.5)
        server.process.send_signal(15)
        time.sleep(0.5)
        listed = server.post({"jsonrpc": "2.0", "id": "l", "method": "tools/list"}, session)
        pinged = server.post({"jsonrpc": "2.0", "id": "p", "method": "ping"}, session)
        assert listed.status == 200 and listed.json()["result"]["tools"]
        assert pinged.status == 200 and pinged.json()["result"] == {}
        call = {"jsonrpc": "2.0", "id": "c", "method": "tools/call"}
        call["params"] = {"name": "raise_it", "arguments": {"what": "datetime"}}
        refused = server.post(call, session)
        assert refused.status == 503 and refused.headers["retry-after"] == "1"
        assert refused.json()["id"] == "c" and "shutting down" in refused.json()["error"]["message"]
        assert server.open_session().status == 503  # no new session
        slow.join(timeout=20)
        assert server.process.wait(timeout=20) == 0
    assert len(results) == 1 and results[0]["content"][0]["text"] == "slept"
