# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The id of a message that cannot be read whole: too large, too deep, not quite JSON.

A message refused unread must still be answered with the request's id, or the client waits
for it forever. Clients write the id near the start (`jsonrpc`, `id`, `method`, then the
large `params`) or, hand-built, at the end; so the transports keep a message's first and
last `EDGE_BYTES` and look there for a top-level `"id"` member. What is looked at is bounded,
and read with the standard library's C decoder a member at a time; an id that cannot be
told for sure (cut by the edge, nested, not a string or an integer) is None, and the answer
goes out with a null id, as JSON-RPC says for a request whose id cannot be detected.
"""

from __future__ import annotations

import json
import re

EDGE_BYTES = 4096  # kept of each end of a message too large to read
# Candidates for the last `"id"` key tried in the tail: a bound on the work a tail full of
# `"id":1,` repeated can ask for.
TAIL_TRIES = 16
MAX_INTEGER_ID = 2**63  # JSON-RPC ids beyond this are not integers any client sends

RequestId = str | int

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Unreadable(ValueError):
    """Not the id of a well-formed message, as far as the edge shows."""


def request_id(head: bytes, tail: bytes = b"") -> RequestId | None:
    """The top-level `id` of the JSON object that starts with `head` and ends with `tail`
    (each at most `EDGE_BYTES` of it), or None when it cannot be told."""
    found = _id_in_head(head[:EDGE_BYTES])
    if found is None and tail:
        found = _id_in_tail(tail[-EDGE_BYTES:])
    return found


def _id_in_head(head: bytes) -> RequestId | None:
    """The `id` among the top-level members that the head holds whole."""
    try:
        text = _text(head)
        position = _expect(text, _skip(text, 0), "{")
        while True:
            key, position = _member_key(text, position)
            if key == "id":
                value, position = _value(text, position)
                _expect(text, position, ",}")  # a number cut by the edge is no id
                return _usable(value)
            _, position = _value(text, position)
            position = _expect(text, position, ",")
    except _Unreadable:
        return None


def _id_in_tail(tail: bytes) -> RequestId | None:
    """The `id` of a `"id": value` member that the members after it close at top level:
    nothing but further members, the object's `}`, and the end."""
    text = _text(tail)
    end = len(text)
    for _ in range(TAIL_TRIES):
        end = text.rfind('"id"', 0, end)
        if end < 0:
            return None
        if _escaped(text, end):
            continue
        try:
            return _closing_id(text, end)
        except _Unreadable:
            continue
    return None


def _closing_id(text: str, position: int) -> RequestId | None:
    """The id if `text[position:]` is `"id": value` then the rest of the top-level object."""
    key, position = _member_key(text, position)
    value, position = _value(text, position)
    while not text.startswith("}", position):
        position = _expect(text, position, ",")
        _, position = _member_key(text, position)
        _, position = _value(text, position)
    if key != "id" or _skip(text, position + 1) != len(text):
        raise _Unreadable
    return _usable(value)


def _text(data: bytes) -> str:
    """`data` as text, each byte that is not UTF-8 (a character the edge cut in two, or a
    stray byte elsewhere) kept apart as a lone surrogate: it can then be in no usable id."""
    return data.decode("utf-8", "surrogateescape")


def _member_key(text: str, position: int) -> tuple[str, int]:
    """A member's key and where its value starts."""
    key, position = _value(text, position)
    if type(key) is not str:
        raise _Unreadable
    return key, _expect(text, position, ":")


def _value(text: str, position: int) -> tuple[object, int]:
    """The JSON value at `position` (after blanks), and where the blanks after it end."""
    try:
        value, end = _DECODER.raw_decode(text, _skip(text, position))
    except (ValueError, RecursionError):
        raise _Unreadable from None
    return value, _skip(text, end)


def _expect(text: str, position: int, characters: str) -> int:
    """Past one of `characters` at `position` (after blanks), and the blanks after it."""
    position = _skip(text, position)
    if position >= len(text) or text[position] not in characters:
        raise _Unreadable
    return _skip(text, position + 1)


def _skip(text: str, position: int) -> int:
    match = _SPACE.match(text, position)
    return match.end() if match else position


def _escaped(text: str, quote: int) -> bool:
    """Whether the quote at `quote` is escaped (an odd run of backslashes before it)."""
    start = quote
    while start > 0 and text[start - 1] == "\\":
        start -= 1
    return (quote - start) % 2 == 1


def _usable(value: object) -> RequestId | None:
    if type(value) is str:
        return None if _SURROGATE.search(value) else value
    if type(value) is int and -MAX_INTEGER_ID < value < MAX_INTEGER_ID:
        return value
    return None
