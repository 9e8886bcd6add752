# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""A template variable's raw text → the value a handler may be given, or the reason it may not.

Decoding is strict: a percent escape that is not UTF-8 (`%C0%AE`, an overlong `.`) or a `%`
that starts no escape (`%ZZ`) is refused, never turned into U+FFFD or passed on as written.
A handler then never sees what could take it out of a folder it joins the value to: `..` as
a path segment, an absolute path (`/etc`, `\\srv`, `C:`), a NUL or another control character,
or — in a variable that holds one path segment — a `/` or `\\` (which the URI could only
carry encoded, `%2F`). The same holds for what the value becomes
if the handler decodes it once more (`%252e%252e`) or folds it to NFKC (U+FF0E, the
fullwidth dot, becomes a `.`). The SDK's `MCPServer` refuses the same by default; a
template's `raw` variables are given as decoded, unchecked. Typed values are strict: an
integer is ASCII digits with an optional `-` (not `+5`, `1_000`, ` 5` or Arabic-Indic
digits), a number is finite, a boolean is `true` or `false`.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote

# How much of a refused value a message shows: a refusal's size must not follow the URI's.
SHOWN_CHARACTERS = 60
# Decoding a value further than this many times is not a plausible mistake of a handler.
_DECODINGS = 3
# Python's own limit on the digits `int()` converts (sys.int_info.str_digits_check_threshold).
_MAX_DIGITS = 4300
_INTEGER = re.compile(r"-?[0-9]+")
_BROKEN_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


class Refused(ValueError):
    """Why a variable's value is not given to the handler (one short sentence)."""


def shown(text: str) -> str:
    """`text` quoted for a message, cut to a bounded length."""
    if len(text) <= SHOWN_CHARACTERS:
        return repr(text)
    return repr(text[:SHOWN_CHARACTERS]) + f"… ({len(text)} characters)"


def decoded(raw: str) -> str:
    """The percent-decoded value; `Refused` when a `%` starts no escape (RFC 3986 has no
    literal `%`: `%ZZ` is a broken URI, not a folder name) or an escape is not UTF-8."""
    if _BROKEN_ESCAPE.search(raw):
        raise Refused(f"{shown(raw)} has a '%' that is not followed by two hex digits")
    try:
        return unquote(raw, errors="strict")
    except UnicodeDecodeError:
        raise Refused(f"{shown(raw)} has a percent escape that is not UTF-8") from None


def check_safe(value: str, *, one_segment: bool) -> None:
    """`Refused` when `value`, or what a handler could make of it, escapes a folder."""
    for form in _readings(value):
        problem = _path_problem(form, one_segment=one_segment)
        if problem is not None:
            raise Refused(f"{shown(value)} {problem}")


def _readings(value: str) -> Iterator[str]:
    """The value, as decoded again and as NFKC folds it: what a handler might look at."""
    seen = value
    for _ in range(_DECODINGS):
        yield seen
        normal = unicodedata.normalize("NFKC", seen)
        if normal != seen:
            yield normal
        again = unquote(seen, errors="replace")
        if again == seen:
            return
        seen = again


def _path_problem(form: str, *, one_segment: bool) -> str | None:
    if any(unicodedata.category(char) == "Cc" for char in form):
        return "holds a NUL or another control character"
    if one_segment and ("/" in form or "\\" in form):
        return "holds a '/' or '\\' (a path separator) where one path segment is expected"
    if ".." in form.replace("\\", "/").split("/"):
        return "holds '..' as a path segment"
    if form[:1] in ("/", "\\") or re.match(r"[A-Za-z]:", form):
        return "is an absolute path"
    return None


def typed(text: str, schema: Mapping[str, Any]) -> Any:
    """The value as the type its schema names; `Refused` when it is not one."""
    kind = schema.get("type")
    if kind == "integer":
        if not _INTEGER.fullmatch(text) or len(text) > _MAX_DIGITS:
            raise Refused(f"{shown(text)} is not an integer (ASCII digits, an optional '-')")
        return int(text)
    if kind == "number":
        number = float(text) if _NUMBER.fullmatch(text) and len(text) <= _MAX_DIGITS else None
        if number is None or not math.isfinite(number):
            raise Refused(f"{shown(text)} is not a finite number")
        return number
    if kind == "boolean":
        if text not in ("true", "false"):
            raise Refused(f"{shown(text)} is not a boolean (true or false)")
        return text == "true"
    return text
