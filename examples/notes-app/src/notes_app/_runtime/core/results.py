# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The last check on a tool result before it is sent: plain JSON, no secrets, bounded size.

Either transport writes what it is given: a `NaN` would become text that is not JSON, a lone
surrogate (a file name that is not UTF-8) makes the stdio writer raise, and a result of any
size would be buffered whole. Here each becomes either a sendable result or a tool error.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from typing import Any

from mcp.types import CallToolResult, TextContent
from pydantic import ConfigDict, TypeAdapter

from .errors import Redactor

# Non-finite floats are kept as they are, to be refused below rather than sent as `null`.
_JSON_CONFIG = ConfigDict(ser_json_bytes="base64", ser_json_inf_nan="constants")
_ANY = TypeAdapter[Any](Any, config=_JSON_CONFIG)


_LEAVES = (str, int, float, bool, type(None))


class NotJson(ValueError):
    """A value with no JSON form (NaN, infinity, an object of no known kind)."""


def error_result(message: str) -> CallToolResult:
    """A tool result that tells the model what went wrong; the server keeps serving."""
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def plain_json(value: object) -> Any:
    """`value` as plain JSON data: datetimes, sets, enums, dataclasses and models converted.

    Raises `NotJson` for what has no faithful JSON form.
    """
    _refuse_iterators(value)
    try:
        plain = _ANY.dump_python(value, mode="json")
    except ValueError as exc:  # pydantic's PydanticSerializationError
        raise NotJson(str(exc).splitlines()[0]) from None
    return plain if _utf8_json(plain) is not None else _checked(plain)


def _utf8_json(value: Any) -> bytes | None:
    """`value` as compact UTF-8 JSON, or None if it holds a NaN, an infinity or a lone
    surrogate: the common case checked in one pass of C instead of a walk in Python."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8")
    except ValueError:  # UnicodeEncodeError is one
        return None


def _refuse_iterators(value: object) -> None:
    """Raise `NotJson` if `value` holds an iterator (a generator, `map`, `itertools.count()`):
    read to its end to be converted, one that never ends would fill the memory."""
    try:
        found = _holds_iterator(value)
    except RecursionError:
        raise NotJson("it is nested too deeply, or holds itself") from None
    if found:
        raise NotJson(
            "it holds an iterator (a generator, map, …), which may never end: return a list"
        )


def _holds_iterator(value: object) -> bool:
    kind = type(value)
    if kind in _LEAVES:
        return False
    if isinstance(value, Iterator):
        return True
    if isinstance(value, Mapping):
        value = value.values()
    elif not isinstance(value, (list, tuple, set, frozenset)):
        return False  # a model, a dataclass, bytes…: pydantic reads it field by field
    return any(_holds_iterator(item) for item in value if type(item) not in _LEAVES)


def _checked(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            str(value)  # past Python's digit limit an int has no JSON text
        except ValueError:
            raise NotJson(f"an integer of {value.bit_length()} bits is too large") from None
        return value
    if isinstance(value, str):
        return _escape_surrogates(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise NotJson(f"{value} has no JSON form")
    if isinstance(value, dict):
        return {_escape_surrogates(str(k)): _checked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_checked(item) for item in value]
    return value


def _escape_surrogates(text: str) -> str:
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate: written as its `\udcxx` escape, readable and valid UTF-8.
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def finished(result: CallToolResult, redactor: Redactor, max_bytes: int) -> CallToolResult:
    """`result` made safe to send, or the tool error saying why it cannot be."""
    dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    data = _utf8_json(dumped) if not redactor.values else None
    if data is not None:  # nothing to escape or redact: the result is sent as it is
        wire, size = dumped, len(data)
    else:
        try:
            wire = redactor.value(_checked(dumped))
        except NotJson as exc:
            return error_result(f"The tool's result is not valid JSON: {exc}")
        size = len(json.dumps(wire, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    if max_bytes and size > max_bytes:
        return error_result(
            f"The tool's result is {size} bytes, over the server's limit of {max_bytes} "
            "(--max-result-bytes); return less, or a resource link to the rest"
        )
    # Rebuilt only when something was escaped or redacted: most results pass as they are.
    return result if wire == dumped else CallToolResult.model_validate(wire)
