"""A call's arguments → the HTTP request its binding describes. Pure: no I/O, no environment.

Values are serialized as OpenAPI 3 says for each parameter's `style` and `explode`. Every path
value is percent-escaped whole (`quote(safe="")`, and `.`/`..` escaped too), so no argument can
change which resource the path names: `../admin` or `a/b` stays one segment.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from .binding import Binding, Body, Parameter

# Characters a header or cookie value must not hold: they would end it and start another.
_FORBIDDEN_IN_HEADER = frozenset("\r\n\0")
# `allowReserved: true` query values keep RFC 3986's reserved characters as they are.
_RESERVED = ":/?#[]@!$&'()*+,;="


class RequestError(ValueError):
    """The arguments cannot make a request (a required value missing, a header broken)."""


@dataclass(frozen=True)
class Outgoing:
    """The request to send, credentials not yet added: `path` is escaped and expanded,
    `query` is the encoded query string (without `?`)."""

    method: str
    path: str
    query: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    content: bytes | None = None

    def url(self, base_url: str, extra_query: str = "") -> str:
        """The full URL on `base_url`, with `extra_query` (credentials) after the query."""
        url = base_url.rstrip("/") + self.path
        query = "&".join(q for q in (self.query, extra_query) if q)
        return f"{url}?{query}" if query else url


def build_request(binding: Binding, arguments: Mapping[str, Any], boundary: str = "") -> Outgoing:
    """The request for `arguments` (keyed by the input schema's property names; absent and
    null arguments are not sent). `boundary`: a multipart body's, random when empty."""
    path = binding.path
    query: list[str] = []
    headers: list[tuple[str, str]] = []
    cookies: list[str] = []
    for parameter in binding.parameters:
        value = arguments.get(parameter.argument)
        if value is None:
            if parameter.location == "path":
                raise RequestError(f"the path parameter {parameter.name!r} has no value")
            continue
        if parameter.location == "path":
            segment = path_value(parameter, value)
            if not segment:  # `/repos//x` would name another resource, or none
                raise RequestError(f"the path parameter {parameter.name!r} is empty")
            path = path.replace("{" + parameter.name + "}", segment)
        elif parameter.location == "query":
            query.extend(query_pairs(parameter, value))
        elif parameter.location == "header":
            headers.append((parameter.name, _header_safe(parameter.name, header_value(value))))
        else:
            cookies.append(cookie_pair(parameter, value))
    if cookies:
        headers.append(("Cookie", "; ".join(cookies)))
    content = None
    if binding.body is not None:
        encoded = encode_body(binding.body, arguments, boundary or secrets.token_hex(16))
        if encoded is not None:
            content_type, content = encoded
            headers.append(("Content-Type", content_type))
    return Outgoing(binding.method, path, "&".join(query), tuple(headers), content)


def text(value: Any) -> str:
    """One primitive as a string on the wire: JSON's spelling of booleans and null, and JSON
    for a nested array or object (which no style defines)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return json.dumps(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _escape(value: Any, safe: str = "") -> str:
    return quote(text(value), safe=safe)


def _segment(value: Any) -> str:
    escaped = _escape(value)
    # `quote` keeps dots, and `.`/`..` alone are path navigation to every URL library.
    return escaped.replace(".", "%2E") if escaped in (".", "..") else escaped


def _pairs(value: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    return ((str(k), v) for k, v in value.items() if v is not None)


def path_value(parameter: Parameter, value: Any) -> str:
    """A path parameter's expansion for styles simple (default), label and matrix."""
    name, explode, style = parameter.name, parameter.explode, parameter.style
    exploded_object = isinstance(value, Mapping) and explode
    if isinstance(value, Mapping):
        if explode:
            items = [f"{_segment(k)}={_segment(v)}" for k, v in _pairs(value)]
        else:
            items = [p for k, v in _pairs(value) for p in (_segment(k), _segment(v))]
    elif isinstance(value, list):
        items = [_segment(v) for v in value if v is not None]
    else:
        items = [_segment(value)]
    if style == "label":
        return "." + ("." if explode else ",").join(items)
    if style == "matrix":
        if not explode:
            return f";{name}=" + ",".join(items)
        return "".join(f";{i}" if exploded_object else f";{name}={i}" for i in items)
    return ",".join(items)


# The separator of an unexploded array's items, by query style (form's comma by default).
_QUERY_DELIMITERS = {"spaceDelimited": "%20", "pipeDelimited": "%7C"}


def query_pairs(parameter: Parameter, value: Any) -> list[str]:
    """A query parameter as `name=value` pieces for styles form (default), spaceDelimited,
    pipeDelimited and deepObject."""
    safe = _RESERVED if parameter.allow_reserved else ""
    name = quote(parameter.name, safe="")
    style, explode = parameter.style, parameter.explode

    def esc(item: Any) -> str:
        return _escape(item, safe)

    if isinstance(value, Mapping):
        pairs = [(quote(k, safe=""), esc(v)) for k, v in _pairs(value)]
        if style == "deepObject":
            return [f"{name}%5B{k}%5D={v}" for k, v in pairs]
        if explode:
            return [f"{k}={v}" for k, v in pairs]
        return [f"{name}=" + ",".join(f"{esc(k)},{esc(v)}" for k, v in _pairs(value))]
    if not isinstance(value, list):
        return [f"{name}={esc(value)}"]
    items = [esc(v) for v in value if v is not None]
    if explode and style not in _QUERY_DELIMITERS:
        return [f"{name}={i}" for i in items]
    return [f"{name}=" + _QUERY_DELIMITERS.get(style, ",").join(items)]


def header_value(value: Any) -> str:
    """A header parameter in style simple: arrays and objects comma-joined (objects as
    `k,v,...`; an exploded object would be `k=v,...`, which no real API asks for)."""
    if isinstance(value, Mapping):
        return ",".join(p for k, v in _pairs(value) for p in (k, text(v)))
    if isinstance(value, list):
        return ",".join(text(v) for v in value if v is not None)
    return text(value)


def cookie_pair(parameter: Parameter, value: Any) -> str:
    """A cookie parameter in style form: `name=value`, arrays comma-joined, each escaped."""
    if isinstance(value, list):
        joined = ",".join(_escape(v) for v in value if v is not None)
    elif isinstance(value, Mapping):
        joined = ",".join(p for k, v in _pairs(value) for p in (_escape(k), _escape(v)))
    else:
        joined = _escape(value)
    return _header_safe(parameter.name, f"{quote(parameter.name, safe='')}={joined}")


def _header_safe(name: str, value: str) -> str:
    if _FORBIDDEN_IN_HEADER.intersection(value):
        raise RequestError(f"the header value of {name!r} holds a line break or a NUL")
    return value


def body_value(body: Body, arguments: Mapping[str, Any]) -> Any:
    """The body's value: the one argument (None: no body is sent), or the flattened
    arguments gathered under their wire names (`{}` when none was given)."""
    if body.argument is not None:
        return arguments.get(body.argument)
    return {wire: arguments[a] for a, wire in body.properties if a in arguments}


def encode_body(
    body: Body, arguments: Mapping[str, Any], boundary: str
) -> tuple[str, bytes] | None:
    """`(Content-Type, bytes)` of the body, or None when there is none to send."""
    value = body_value(body, arguments)
    if value is None:
        return None
    media = body.media_type
    if media == "application/x-www-form-urlencoded":
        return media, _form_fields(value).encode("ascii")
    if media == "multipart/form-data":
        return f"multipart/form-data; boundary={boundary}", _multipart(value, boundary)
    if media == "application/json" or media.endswith("+json"):
        data = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return body.content_type, data.encode("utf-8")
    # text/plain, application/octet-stream, XML...: a string is sent as it is.
    return body.content_type, text(value).encode("utf-8")


def _fields(value: Any) -> Iterator[tuple[str, str]]:
    if not isinstance(value, Mapping):
        raise RequestError("a form body must be an object")
    for key, item in _pairs(value):
        if isinstance(item, list):
            yield from ((key, text(v)) for v in item if v is not None)
        else:
            yield key, text(item)


def _form_fields(value: Any) -> str:
    return "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in _fields(value))


def _multipart(value: Any, boundary: str) -> bytes:
    parts: list[bytes] = []
    for key, item in _fields(value):
        name = key.replace("\\", "\\\\").replace('"', '\\"')
        _header_safe(key, name)
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + item.encode("utf-8")
            + b"\r\n"
        )
    return b"".join(parts) + f"--{boundary}--\r\n".encode()
