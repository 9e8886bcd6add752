# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""How regress compiles schema patterns, and a process that runs its matches on request.

Run as a script (`python regex_worker.py`), it says `+` once regress is loaded, then answers
each request line on stdin, `["pattern", "text"]` as UTF-8 JSON, with `1` (matches), `0`
(does not), `!` (the pattern does not compile) or `? <error>`. A backtracking match that
runs away then blocks this process, not the server: the server stops waiting at its deadline
and kills it.
No relative imports: the file is run by path, outside its package.
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regress


class InvalidPattern(ValueError):
    """A pattern no ECMA-262 engine accepts."""


# Patterns a project's rendered tool table declares valid ECMA-262 in Unicode mode: mcpgen
# compiled each with regress when it rendered them. Knowing that, the server translates them
# for RE2 without loading regress (about 1 MB) just to ask again.
_DECLARED_VALID: set[str] = set()


def declare_valid(patterns: Iterable[str]) -> None:
    """Record patterns mcpgen compiled with regress in Unicode mode when it rendered them."""
    _DECLARED_VALID.update(patterns)


def is_declared_valid(pattern: str) -> bool:
    """True when the rendered code declared `pattern` valid in Unicode mode (`declare_valid`)."""
    return pattern in _DECLARED_VALID


def compile_unicode(pattern: str) -> regress.Regex:
    """The pattern with Unicode semantics, as JSON Schema and Ajv read it."""
    # Imported on the first pattern: a server whose schemas have none never loads it.
    import regress  # noqa: PLC0415

    return regress.Regex(pattern, "u")


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> regress.Regex:
    """Compile with Unicode semantics (as JSON Schema and Ajv do), else in legacy mode.

    Legacy mode accepts identity escapes such as `\\_` and `\\-` that generated schemas
    (zod, pydantic) often contain and that every JavaScript engine runs.
    """
    import regress  # noqa: PLC0415

    try:
        return compile_unicode(pattern)
    except regress.RegressError as unicode_error:
        try:
            return regress.Regex(pattern)
        except regress.RegressError:
            raise InvalidPattern(str(unicode_error)) from None


def answer(request: bytes) -> str:
    """The reply line to one request line."""
    try:
        pattern, text = json.loads(request)
        found = compile_pattern(pattern).find(text) is not None
    except InvalidPattern:
        return "!"
    except Exception as exc:  # answered, not fatal: the next request is served
        return f"? {type(exc).__name__}"
    return "1" if found else "0"


def serve(match_limit: float | None = None) -> None:
    """Answer requests until stdin closes; die if one match runs past `match_limit` seconds."""
    # Ctrl-C reaches the whole process group: the server decides when this process ends
    # (by closing stdin, or killing it), so calls still draining keep their matcher.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The server kills a runaway match at its deadline, but a server that is itself killed
    # (SIGKILL) cannot: then the kernel's alarm, whose default action ends the process even
    # while regress holds the GIL, keeps an orphan from burning CPU for minutes.
    limit = match_limit if match_limit is not None and hasattr(signal, "setitimer") else 0.0
    bounded = limit > 0
    if bounded:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    try:
        compile_unicode("")  # loaded before the first request, whose deadline then is its own
    except Exception:
        pass  # each request is answered with the error
    sys.stdout.buffer.write(b"+\n")
    sys.stdout.buffer.flush()
    for line in sys.stdin.buffer:  # bytes: the locale's encoding plays no part
        if bounded:
            signal.setitimer(signal.ITIMER_REAL, limit)
        reply = answer(line)
        if bounded:
            signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout.buffer.write(reply.encode() + b"\n")
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    serve(float(sys.argv[1]) if len(sys.argv) > 1 else None)
