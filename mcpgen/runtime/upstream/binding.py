"""A bound tool's binding and its API source, as frozen values built from the plain dicts
rendered into `_generated/apis.py`.

The dicts are the contract between the renderer and this runtime: each field is read once,
when the tool's handler is built (on its first call), never per call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

Location = Literal["path", "query", "header", "cookie"]
Validation = Literal["strict", "warn", "off"]
_DEFAULT_STYLE: dict[str, str] = {
    "path": "simple",
    "query": "form",
    "header": "simple",
    "cookie": "form",
}


@dataclass(frozen=True)
class Auth:
    """How a source's requests carry credentials.

    kind `bearer`: `Authorization: Bearer $env`; `header`: header `name` = $env; `query`:
    query parameter `name` = $env; `basic`: `env` and `password_env` as user and password;
    `passthrough`: the MCP caller's own bearer token, forwarded (nothing on stdio).
    """

    kind: Literal["bearer", "header", "query", "basic", "passthrough"]
    env: str = ""
    name: str = ""
    password_env: str = ""

    @classmethod
    def from_plain(cls, plain: Mapping[str, Any] | None) -> Auth | None:
        """The auth its rendered dict describes; None when the source has none. Raises
        ValueError for settings this runtime does not know."""
        if not plain:
            return None
        if plain.get("passthrough"):
            return cls("passthrough")
        if "bearer_env" in plain:
            return cls("bearer", env=str(plain["bearer_env"]))
        if "basic_env" in plain:
            user, password = plain["basic_env"]
            return cls("basic", env=str(user), password_env=str(password))
        if "header" in plain:
            return cls("header", env=str(plain["env"]), name=str(plain["header"]))
        if "query" in plain:
            return cls("query", env=str(plain["env"]), name=str(plain["query"]))
        raise ValueError(f"unknown auth settings: {sorted(plain)}")

    @property
    def env_names(self) -> tuple[str, ...]:
        """The environment variables the credentials are read from (none for passthrough)."""
        return tuple(name for name in (self.env, self.password_env) if name)


@dataclass(frozen=True)
class ApiSource:
    """One OpenAPI source: where its operations are served and how they authenticate."""

    key: str
    base_url: str
    base_url_env: str = ""
    auth: Auth | None = None
    timeout: float = 30.0  # seconds per attempt
    retries: int = 2  # extra attempts on 429/503 (and connection failures when idempotent)

    @classmethod
    def from_plain(cls, plain: Mapping[str, Any]) -> ApiSource:
        """The source its rendered dict describes (defaults: 30 s timeout, 2 retries)."""
        return cls(
            key=str(plain["key"]),
            base_url=str(plain.get("base_url") or ""),
            base_url_env=str(plain.get("base_url_env") or ""),
            auth=Auth.from_plain(plain.get("auth")),
            timeout=float(plain.get("timeout", 30.0)),
            retries=max(0, int(plain.get("retries", 2))),
        )


@dataclass(frozen=True)
class Parameter:
    """A path, query, header or cookie parameter: `name` on the wire, `argument` in the call."""

    name: str
    location: Location
    argument: str
    style: str
    explode: bool
    required: bool = False
    allow_reserved: bool = False

    @classmethod
    def from_plain(cls, plain: Mapping[str, Any]) -> Parameter:
        """The parameter its rendered dict describes, with OpenAPI's defaults for `style`,
        `explode` and `required`; ValueError for an unknown location."""
        location = str(plain["in"])
        if location not in _DEFAULT_STYLE:
            raise ValueError(f"parameter {plain.get('name')!r}: unknown location {location!r}")
        style = str(plain.get("style") or _DEFAULT_STYLE[location])
        explode = plain.get("explode")
        return cls(
            name=str(plain["name"]),
            location=cast(Location, location),
            argument=str(plain.get("argument") or plain["name"]),
            style=style,
            # OpenAPI: `explode` defaults to true for style form, false for the others.
            explode=bool(style == "form" if explode is None else explode),
            required=bool(plain.get("required", location == "path")),
            allow_reserved=bool(plain.get("allow_reserved", False)),
        )


@dataclass(frozen=True)
class Body:
    """The request body: one argument sent whole, or top-level arguments (argument → wire
    name) gathered into an object."""

    content_type: str
    argument: str | None = None
    properties: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_plain(cls, plain: Mapping[str, Any] | None) -> Body | None:
        """The body its rendered dict describes; None for an operation without one."""
        if not plain:
            return None
        properties = plain.get("properties")
        return cls(
            content_type=str(plain.get("content_type") or "application/json"),
            argument=None if properties is not None else str(plain.get("argument") or "body"),
            properties=tuple((str(a), str(w)) for a, w in (properties or {}).items()),
        )

    @property
    def media_type(self) -> str:
        """The content type without its parameters, in lower case."""
        return self.content_type.split(";", 1)[0].strip().lower()


@dataclass(frozen=True)
class Binding:
    """How one tool calls its operation, and how its answer becomes the tool's result."""

    api: str
    method: str
    path: str
    parameters: tuple[Parameter, ...] = ()
    body: Body | None = None
    wrap: str | None = None  # a non-object 2xx JSON answer is returned as {wrap: value}
    empty: bool = False  # the success answer has no body
    output_validation: Validation = "strict"
    # The structured result's schema (wrapped like the result), checked when `warn`.
    response_schema: Mapping[str, Any] | None = None

    @classmethod
    def from_plain(cls, plain: Mapping[str, Any]) -> Binding:
        """The binding its rendered dict describes; ValueError for an unknown
        `output_validation`."""
        response = plain.get("response") or {}
        validation = str(plain.get("output_validation") or "strict")
        if validation not in ("strict", "warn", "off"):
            raise ValueError(f"unknown output_validation {validation!r}")
        return cls(
            api=str(plain["api"]),
            method=str(plain["method"]).upper(),
            path=str(plain["path"]),
            parameters=tuple(Parameter.from_plain(p) for p in plain.get("parameters") or ()),
            body=Body.from_plain(plain.get("body")),
            wrap=response.get("wrap"),
            empty=bool(response.get("empty", False)),
            output_validation=cast(Validation, validation),
            response_schema=plain.get("response_schema"),
        )

    @property
    def idempotent(self) -> bool:
        """Whether a request that may have reached the API can be sent again safely."""
        return self.method in ("GET", "HEAD", "OPTIONS", "PUT", "DELETE")
