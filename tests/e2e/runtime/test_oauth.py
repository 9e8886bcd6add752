"""OAuth 2.1 resource-server mode: JWTs from a local key and a JWKS file, no network."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.support.runtime.http_wire import HttpServer, free_port, http_server, start

ISSUER = "https://issuer.example"
RESOURCE = "http://127.0.0.1/mcp"


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


SIGNING_KEY = rsa_key()
OTHER_KEY = rsa_key()


def token(key: rsa.RSAPrivateKey = SIGNING_KEY, **claims: Any) -> str:
    now = int(time.time())
    body = {"iss": ISSUER, "aud": RESOURCE, "sub": "alice", "exp": now + 300, "iat": now}
    body.update(claims)
    return jwt.encode(body, key, algorithm="RS256", headers={"kid": "k1"})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(SIGNING_KEY.public_key()))
    jwks = tmp_path_factory.mktemp("jwks") / "jwks.json"
    jwks.write_text(json.dumps({"keys": [{**public, "kid": "k1", "use": "sig", "alg": "RS256"}]}))
    args = [
        "--oauth-issuer", ISSUER, "--oauth-resource", RESOURCE, "--oauth-jwks-file", str(jwks),
        "--stateless", "--json-response",
    ]  # fmt: skip
    with http_server(args) as running:
        yield running


def call(server: HttpServer, bearer: str | None, name: str = "raw", **args: Any) -> Any:
    headers = {} if bearer is None else {"authorization": f"Bearer {bearer}"}
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "raise_it" if name == "raw" else name, "arguments": args},
    }
    return server.post(message, **headers)


def test_a_valid_token_is_served(server: HttpServer) -> None:
    answer = call(server, token(scope="read"), what="datetime")
    assert answer.status == 200 and answer.json()["result"]["isError"] is False


@pytest.mark.parametrize(
    "bad",
    [
        None,
        token(aud="https://other.example/mcp"),
        token(iss="https://evil.example"),
        token(exp=int(time.time()) - 3600),
        token(OTHER_KEY),
        "not.a.jwt",
        jwt.encode({"iss": ISSUER, "aud": RESOURCE, "exp": 2**40}, "k" * 32, algorithm="HS256"),
    ],
    ids=["missing", "wrong-audience", "wrong-issuer", "expired", "wrong-key", "garbage", "hs256"],
)
def test_bad_tokens_are_401_with_a_challenge(server: HttpServer, bad: str | None) -> None:
    answer = call(server, bad, what="datetime")
    assert answer.status == 401
    challenge = answer.headers["www-authenticate"]
    assert challenge.startswith("Bearer ") and "resource_metadata=" in challenge


def test_a_tool_scope_is_enforced_403_insufficient_scope(server: HttpServer) -> None:
    refused = call(server, token(scope="read"), name="admin_only", seconds=0)
    assert refused.status == 403
    assert 'error="insufficient_scope"' in refused.headers["www-authenticate"]
    assert 'scope="admin"' in refused.headers["www-authenticate"]
    allowed = call(server, token(scope="read admin"), name="admin_only", seconds=0)
    assert allowed.status == 200 and allowed.json()["result"]["isError"] is False


def test_protected_resource_metadata_is_served(server: HttpServer) -> None:
    answer = server.request("GET", "/.well-known/oauth-protected-resource/mcp")
    assert answer.status == 200
    metadata = json.loads(answer.body)
    assert metadata["resource"] == RESOURCE and metadata["authorization_servers"] == [ISSUER]


def test_the_handler_context_names_the_caller_and_scopes(server: HttpServer) -> None:
    answer = call(server, token(scope="read write"), name="whoami")
    assert answer.status == 200
    caller = json.loads(answer.json()["result"]["content"][0]["text"])
    assert caller == {"subject": "alice", "scopes": ["read", "write"]}


HOSTILE_BODIES = {
    "deep-arrays": b"[" * 100_000 + b"]" * 100_000,
    "deep-arguments": b'{"jsonrpc":"2.0","id":1,"method":"tools/call",'
    b'"params":{"name":"admin_only","arguments":' + b"[" * 100_000 + b"]" * 100_000 + b"}}",
    "deep-objects": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "huge-integer": b'{"jsonrpc":"2.0","id":' + b"9" * 100_000 + b',"method":"ping"}',
    "huge-exponent": b'{"jsonrpc":"2.0","id":1e999999,"method":"ping"}',
    "invalid-utf8": b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\xff\xfe"}}',
    "lone-surrogate": b'{"jsonrpc":"2.0","id":1,"method":"tools/call",'
    b'"params":{"name":"admin_only\\ud800","arguments":{}}}',
}


@pytest.mark.parametrize("authenticated", [False, True], ids=["no-token", "token"])
@pytest.mark.parametrize("body", HOSTILE_BODIES.values(), ids=HOSTILE_BODIES.keys())
def test_hostile_bodies_are_refused_never_a_500(
    server: HttpServer, body: bytes, authenticated: bool
) -> None:
    headers = {"content-type": "application/json", "accept": "application/json"}
    if authenticated:
        headers["authorization"] = f"Bearer {token(scope='read')}"
    answer = server.request("POST", body=body, headers=headers)
    assert answer.status in ((400, 202) if authenticated else (401,)), answer.body[:200]
    assert call(server, token(scope="read"), what="datetime").status == 200


UNUSABLE_JWKS = {
    "missing": None,
    "a-folder": "",
    "not-json": "garbage\n",
    "no-keys": '{"keys": []}',
    "not-a-key-set": "[1, 2]",
    "not-utf8": b"\xff\xfe{",
}


@pytest.mark.parametrize("content", UNUSABLE_JWKS.values(), ids=UNUSABLE_JWKS.keys())
def test_an_unusable_jwks_file_refuses_to_start_in_one_line(
    tmp_path: Path, content: str | bytes | None
) -> None:
    jwks = tmp_path / "jwks.json"
    if content == "":
        jwks.mkdir()
    elif isinstance(content, bytes):
        jwks.write_bytes(content)
    elif content is not None:
        jwks.write_text(content)
    args = ["--oauth-issuer", ISSUER, "--oauth-resource", RESOURCE, "--oauth-jwks-file", str(jwks)]
    process = start(["--port", str(free_port()), *args])
    _, stderr = process.communicate(timeout=60)
    lines = stderr.decode().strip().splitlines()
    assert process.returncode == 1
    assert len(lines) == 1 and "--oauth-jwks-file" in lines[0] and str(jwks) in lines[0], lines
