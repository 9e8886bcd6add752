# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Who may call the HTTP server: one shared bearer token, or OAuth 2.1 JWT access tokens.

Both are `TokenVerifier`s for the SDK's bearer middleware, which answers 401 with a
`WWW-Authenticate` challenge when a token is missing or refused.
"""

from __future__ import annotations

import hmac
import json
import logging
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
from mcp.server.auth.provider import AccessToken

from .options import OAuthOptions, RefusedToStart

logger = logging.getLogger(__name__)

BEARER_CLIENT = "bearer-token"
# Asymmetric algorithms only: with a JWKS of public keys, an HS256 token would be signed with
# whatever the attacker took for the "secret".
JWT_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA")


class StaticTokenVerifier:
    """Accepts exactly one token, compared in constant time."""

    def __init__(self, token: str) -> None:
        self._token = token.encode("utf-8")

    async def verify_token(self, token: str) -> AccessToken | None:
        if not hmac.compare_digest(token.encode("utf-8"), self._token):
            return None
        return AccessToken(token="", client_id=BEARER_CLIENT, scopes=[])


def _read_key_set(jwt: Any, path: str) -> Any:
    """The keys of a JWKS file; a file that cannot give them refuses the start in one line
    (the server could verify no token)."""
    try:
        document = json.loads(Path(path).read_bytes())
        if not isinstance(document, dict):
            raise ValueError("not a JSON Web Key Set (an object with `keys`)")
        return jwt.PyJWKSet.from_dict(document)
    except Exception as exc:  # unreadable, not JSON, no usable key: each is the file's fault
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        reason = " ".join(reason.split()) or type(exc).__name__
        raise RefusedToStart(f"--oauth-jwks-file {path}: {reason}") from None


class JwtVerifier:
    """Verifies signature, `exp`/`nbf`, `iss` and `aud`; scopes from `scope` or `scp`."""

    def __init__(self, options: OAuthOptions) -> None:
        import jwt  # noqa: PLC0415  (only this mode needs it)

        self._jwt = jwt
        self._options = options
        self._keys: Any = None
        if options.jwks_file:
            self._keys = _read_key_set(jwt, options.jwks_file)
        self._client = jwt.PyJWKClient(options.jwks_url) if options.jwks_url else None

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            key = await self._signing_key(token)
            claims: dict[str, Any] = self._jwt.decode(
                token,
                key,
                algorithms=list(JWT_ALGORITHMS),
                audience=self._options.audience,
                issuer=self._options.issuer,
                leeway=self._options.leeway,
                options={"require": ["exp", "iss", "aud"]},
            )
        except Exception as exc:  # a refused token is a 401, never a 500
            logger.info("access token refused: %s", type(exc).__name__)
            return None
        return access_token(claims)

    async def _signing_key(self, token: str) -> Any:
        if self._client is not None:
            # The JWKS is fetched (and cached) over the network: off the event loop.
            signing = await anyio.to_thread.run_sync(self._client.get_signing_key_from_jwt, token)
            return signing.key
        kid = self._jwt.get_unverified_header(token).get("kid")
        keys = [k for k in self._keys.keys if kid is None or k.key_id == kid]
        if len(keys) != 1:
            raise LookupError(f"no single key in the JWKS file for kid {kid!r}")
        return keys[0].key


def access_token(claims: Mapping[str, Any]) -> AccessToken:
    scopes = claims.get("scope", claims.get("scp", ""))
    scope_list: Sequence[Any] = scopes.split() if isinstance(scopes, str) else scopes
    subject = claims.get("sub")
    client = claims.get("client_id") or claims.get("azp") or subject or "unknown"
    expires = claims.get("exp")
    return AccessToken(
        token="",
        client_id=str(client),
        scopes=[str(scope) for scope in scope_list],
        expires_at=int(expires) if isinstance(expires, int | float) else None,
        subject=None if subject is None else str(subject),
        claims=dict(claims),
    )


def expired(token: AccessToken) -> bool:
    return token.expires_at is not None and token.expires_at < time.time()
