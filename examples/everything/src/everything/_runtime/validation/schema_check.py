# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""JSON Schema verdicts on tool arguments and results, against the manifest's schemas.

The reference is python `jsonschema`, in the draft the schema names (2020-12 by default), with
the keywords that evaluate regexes run as ECMA-262 (`ecma_regex`). jsonschema-rs, ~100 times
faster, decides alone where it is known to judge the same (a plain schema, `plain_schema`, is
judged by closures compiled from it, without either engine): everywhere but `patternProperties`,
whose keys it matches with its own regex engine (and `additionalProperties` with them), so a
schema with `patternProperties` is judged by the reference only. The verdict fails closed: when
the fast engine rejects what the reference accepts, or either engine raises, the instance is
refused with the reasons found, never accepted.

Both engines match patterns through `bounded_regex` (linear-time where RE2 can, else in a
child process under a deadline; imported with the first schema that has a pattern), with
regress's verdicts; a schema holding a pattern of the
second kind is `isolated`: its verdicts should be computed off the event loop, since they may
wait for the child. One computed on the event loop anyway (a result, a resource parameter)
gets a much shorter deadline: every client waits while it runs.
"""

from __future__ import annotations

import asyncio
import math
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from .plain_schema import compile_plain

T = TypeVar("T")
# Seconds of backtracking matches a verdict computed on the event loop thread may take.
LOOP_BUDGET = 0.1
# Threads for verdicts that may wait for the regex child. Their own: a flood of such calls
# must not take the threads anyio lends everyone else (token checks, file reads).
VERDICT_THREADS = 8
_verdict_threads: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
    weakref.WeakKeyDictionary()
)


async def off_loop_if(isolated: bool, function: Callable[..., T], *args: Any) -> T:
    """`function(*args)`, in a worker thread when it may wait for the regex child process:
    the event loop keeps serving other calls meanwhile."""
    if not isolated:
        return function(*args)
    loop = asyncio.get_running_loop()  # a limiter belongs to one event loop
    limiter = _verdict_threads.get(loop)
    if limiter is None:
        limiter = _verdict_threads[loop] = anyio.CapacityLimiter(VERDICT_THREADS)
    return await anyio.to_thread.run_sync(function, *args, limiter=limiter)


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def search(pattern: str, text: str) -> bool:
    """`bounded_regex.search`, imported on the first match."""
    from .bounded_regex import search as bounded_search  # noqa: PLC0415

    return bounded_search(pattern, text)


class _EcmaPattern:
    """jsonschema-rs keyword `pattern`, matched by the same ECMA-262 engine as the reference."""

    def __init__(self, parent_schema: Any, value: str, schema_path: Any) -> None:
        from .ecma_regex import compile_pattern  # noqa: PLC0415  (a schema with a pattern)
        from .regex_worker import is_declared_valid  # noqa: PLC0415

        self._pattern = value
        if not is_declared_valid(value):
            compile_pattern(value)  # an invalid pattern fails the build, not the first call

    def validate(self, instance: Any) -> None:
        if isinstance(instance, str) and not search(self._pattern, instance):
            raise ValueError(f"{instance!r} does not match {self._pattern!r}")


def json_path(parts: Iterable[str | int]) -> str:
    """`$.items[0].name`: where in the instance a problem is; `$` is the whole instance."""
    path = "$"
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part[:1].isalpha() and all(char.isalnum() or char in "_-" for char in part):
            path += f".{part}"
        else:
            path += "[" + repr(part) + "]"
    return path


def _patterns(schema: object) -> Iterator[str]:
    """Every regex the schema may evaluate (a `pattern` under `const` too: harmless)."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            elif key == "patternProperties" and isinstance(value, Mapping):
                yield from (name for name in value if isinstance(name, str))
            yield from _patterns(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _patterns(item)


def _mentions_pattern_properties(schema: object) -> bool:
    if isinstance(schema, Mapping):
        return "patternProperties" in schema or any(
            _mentions_pattern_properties(value) for value in schema.values()
        )
    if isinstance(schema, list):
        return any(_mentions_pattern_properties(item) for item in schema)
    return False


def _fast_validator(schema: Mapping[str, Any]) -> Any:
    if _mentions_pattern_properties(schema):
        return None
    # Imported on a tool's first call (4 MB of native code): a server answers initialize and
    # tools/list without it.
    import jsonschema_rs  # noqa: PLC0415

    try:
        return jsonschema_rs.validator_for(
            dict(schema), keywords={"pattern": _EcmaPattern}, validate_formats=False
        )
    except Exception:
        return None  # the reference judges what jsonschema-rs cannot compile


def non_finite(instance: Any) -> list[str]:
    """Where `instance` holds a NaN or an infinity, as `$.path: ...` lines.

    JSON has neither, but the parsers both transports use read `NaN`, `Infinity` and
    `-Infinity` on the wire, and a number past the double range (`1e400`) as an infinity.
    No schema may be asked about one: a NaN passes every bound (`NaN > 10` is false), so
    `{"maximum": 10}` would hand it to the handler. Walked without recursion: the value's
    depth is the client's.
    """
    found: list[tuple[Sequence[str | int], str]] = []
    pending: list[tuple[tuple[str | int, ...], Any]] = [((), instance)]
    while pending:
        where, value = pending.pop()
        if isinstance(value, float) and not math.isfinite(value):
            found.append((where, f"{value} is not a JSON number (JSON has no NaN or Infinity)"))
        elif isinstance(value, Mapping):
            pending.extend(((*where, str(key)), item) for key, item in value.items())
        elif isinstance(value, list):
            pending.extend(((*where, index), item) for index, item in enumerate(value))
    return _lines(found)


def _lines(found: Iterable[tuple[Sequence[str | int], str]]) -> list[str]:
    ordered = sorted(found, key=lambda item: ([str(p) for p in item[0]], item[1]))
    return [f"{json_path(where)}: {message}" for where, message in ordered]


class SchemaCheck:
    """One schema, compiled once: `problems(instance)` is [] exactly when the schema accepts."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self._schema = schema
        self._plain = compile_plain(schema)
        self._fast = None if self._plain is not None else _fast_validator(schema)
        self._reference: Any = None
        patterns = list(_patterns(schema))
        self._patterned = bool(patterns)
        self.isolated = False
        self._lane: Any = None  # this schema's turn at the regex children
        if patterns:
            from .bounded_regex import Lane, is_linear, warm_up  # noqa: PLC0415

            self.isolated = not all(is_linear(pattern) for pattern in patterns)
            if self.isolated:
                self._lane = Lane()
                warm_up()

    def problems(self, instance: Any) -> list[str]:
        """Every way `instance` fails the schema, as `$.path: message` lines; [] when valid.

        A NaN or an infinity anywhere fails every schema, `{}` and `true` included.
        """
        unnumbered = non_finite(instance)
        if unnumbered:
            return unnumbered
        if not self._patterned:
            return self._problems(instance)
        # RE2, regress and their tables load with the first schema that has a pattern.
        from .bounded_regex import VERDICT_BUDGET, verdict_budget  # noqa: PLC0415

        budget = LOOP_BUDGET if _on_event_loop() else VERDICT_BUDGET
        with verdict_budget(budget, self._lane):
            return self._problems(instance)

    def _problems(self, instance: Any) -> list[str]:
        try:
            if self._plain is not None:
                accepted = self._plain(instance)
            else:
                accepted = self._fast is not None and self._fast.is_valid(instance)
            if accepted:
                return []
            found = self.reference_problems(instance)
            if found or (self._plain is None and self._fast is None):
                return found
            # The judges disagree: refuse, with jsonschema-rs's reasons where it judged.
            reasons = self._fast_reasons(instance)
            return reasons or ["$: refused: the validators disagree on these arguments"]
        except Exception as exc:
            return [f"$: could not be checked ({type(exc).__name__}: {exc})"]

    def _fast_reasons(self, instance: Any) -> list[str]:
        if self._fast is None:
            return []
        errors = self._fast.iter_errors(instance)
        return _lines((list(error.instance_path), error.message) for error in errors)

    def reference_problems(self, instance: Any) -> list[str]:
        """The reference verdict alone, in words (the slow path)."""
        errors = self._reference_validator().iter_errors(instance)
        return _lines((list(error.absolute_path), error.message) for error in errors)

    def _reference_validator(self) -> Any:
        if self._reference is None:
            # Imported on first use: a server whose calls are all valid never loads it.
            from jsonschema import Draft202012Validator, validators  # noqa: PLC0415

            from .ecma_regex import with_ecma_regex  # noqa: PLC0415

            base = validators.validator_for(self._schema, default=Draft202012Validator)
            self._reference = with_ecma_regex(base, search)(self._schema)
        return self._reference
