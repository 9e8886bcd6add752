"""`mcpgen doctor`'s HTTP authentication check against a real server on 127.0.0.1."""

from __future__ import annotations

from mcpgen.hosts.http_auth import auth_check
from tests.support.runtime.http_wire import free_port, http_server

TOKEN = "doctor-token-0123456789"


def test_with_and_without_the_token() -> None:
    with http_server(["--auth-token-env", "DOC_TOKEN"], {"DOC_TOKEN": TOKEN}) as server:
        url = f"http://127.0.0.1:{server.port}/mcp"
        good = auth_check(url, "DOC_TOKEN", {"DOC_TOKEN": TOKEN})
        wrong = auth_check(url, "DOC_TOKEN", {"DOC_TOKEN": "nope"})
        unset = auth_check(url, "DOC_TOKEN", {})
        no_flag = auth_check(url, None, {})
    assert (good.status, good.message) == ("ok", "without a token: 401; with $DOC_TOKEN: 200")
    assert wrong.status == "fail" and "refuses the token" in wrong.message
    assert unset.status == "fail" and "unset" in unset.message
    assert no_flag.status == "warn" and "401" in no_flag.message


def test_an_open_server_fails_when_a_token_is_expected() -> None:
    with http_server() as server:
        url = f"http://127.0.0.1:{server.port}/mcp"
        check = auth_check(url, "DOC_TOKEN", {"DOC_TOKEN": TOKEN})
    assert check.status == "fail" and "--auth-token-env DOC_TOKEN" in check.message


def test_nothing_listening_is_a_warning() -> None:
    check = auth_check(f"http://127.0.0.1:{free_port()}/mcp", "DOC_TOKEN", {}, timeout=2)
    assert check.status == "warn"
