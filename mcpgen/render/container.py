"""The container image's settings: base image policy, port, auth variable, allowed host."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from mcpgen.manifest.model import Manifest

# Tag policy: a Python minor version on a named Debian release, never `latest` or a bare
# `3`: rebuilds pick up security patches of that release and nothing else. Pin by digest
# with `publish.base_image: python:3.12-slim-bookworm@sha256:...` for byte-identical builds.
DEFAULT_BASE_IMAGE = "python:3.12-slim-bookworm"
DEFAULT_TOKEN_ENV = "MCP_AUTH_TOKEN"
CONTAINER_PORT = 8000
CONTAINER_UID = 10001  # above the range distributions hand out, so it owns nothing on the host


@dataclass(frozen=True)
class Container:
    """What the Dockerfile template needs."""

    base_image: str
    token_env: str
    port: int
    uid: int
    allowed_hosts: tuple[str, ...]
    command: tuple[str, ...]


def container(manifest: Manifest) -> Container:
    """The image's settings from `publish:`: a stateless, token-guarded HTTP server on port 8000."""
    publish = manifest.publish
    token_env = publish.auth_token_env or DEFAULT_TOKEN_ENV
    allowed = _public_host(publish.remote_url)
    command = (
        manifest.script,
        *("--transport", "http", "--host", "0.0.0.0", "--port", str(CONTAINER_PORT)),
        *("--stateless", "--json-response", "--auth-token-env", token_env),
        *(arg for host in allowed for arg in ("--allowed-host", host)),
    )
    return Container(
        base_image=publish.base_image or DEFAULT_BASE_IMAGE,
        token_env=token_env,
        port=CONTAINER_PORT,
        uid=CONTAINER_UID,
        allowed_hosts=allowed,
        command=command,
    )


def _public_host(remote_url: str | None) -> tuple[str, ...]:
    """The Host header clients send to the public endpoint: the server refuses others."""
    if not remote_url:
        return ()
    netloc = urlsplit(remote_url).netloc.rpartition("@")[2]
    return (netloc,) if netloc else ()
