"""Pattern matching that cannot stall the server: RE2 where it reads the pattern as ECMA-262
does, a child process under a deadline elsewhere."""

from __future__ import annotations

import threading
import time

import anyio
import pytest
from mcp.types import CallToolResult

from mcpgen.runtime import bounded_regex
from mcpgen.runtime.bounded_regex import PatternTimeout, is_linear, search, verdict_budget
from mcpgen.runtime.linear_regex import linear_pattern, to_re2
from mcpgen.runtime.regex_worker import compile_pattern
from mcpgen.runtime.runtime import Dispatcher
from mcpgen.runtime.validation import LOOP_BUDGET, SchemaCheck
from tests.support.runtime.redos_tools import TOOLS

RUNAWAY = "a" * 30 + "!"
# Exponential in regress, and not translatable (a back-reference): the child process runs it.
BACKTRACKING_FALLBACK = r"^(a+)+\1$"


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        (r"^\s$", "\u00a0", True),
        (r"^\s$", "\ufeff", True),
        (r"^\s$", "\u2028", True),
        (r"^\s$", "\u3000", True),
        (r"^\s$", "\x85", False),  # NEL: Python's and RE2's Unicode whitespace, not ECMA-262's
        (r"^\s$", "\u200b", False),
        (r"^\S$", "\u1680", False),
        (r"^\d$", "٣", False),
        (r"^\w$", "é", False),
        (r"^\w$", "\u212a", False),
        (r"^.$", "\n", False),
        (r"^.$", "\u2029", False),
        (r"^.$", "\x85", True),
        (r"^.$", "😀", True),  # one code point, as in Unicode mode
        (r"^..$", "😀", False),
        (r"^a$", "a\n", False),  # `$` is the end of the text, never before a final newline
        (r"a$", "ba", True),  # a search, not a full match
        (r"^$", "", True),
        (r"\bé", " é", False),  # `\b` knows ASCII word characters only
        (r"^[^]$", "\n", True),
        (r"[]", "anything", False),
        (r"^\cJ$", "\n", True),
        (r"^\u{1F600}$", "😀", True),
        (r"^[\b]$", "\x08", True),
        (r"^[😀-😂]$", "😁", True),
        (r"^a/b$", "a/b", True),
        (r"^(?<y>\d{4})$", "2024", True),
    ],
)
def test_translation_keeps_ecma_meaning(pattern: str, text: str, expected: bool) -> None:
    linear = linear_pattern(pattern)
    assert linear is not None, to_re2(pattern)
    assert (compile_pattern(pattern).find(text) is not None) is expected
    assert (linear.search(text) is not None) is expected


@pytest.mark.parametrize(
    "pattern",
    [
        r"^(a)\1$",  # back-reference
        r"(?<n>a)\k<n>",
        r"^(?=a)",  # look-around
        r"(?<!a)b",
        r"^\p{L}+$",  # property escape: the engines' Unicode versions may differ
        r"^\_$",  # legacy (non-Unicode) syntax
        r"\uD83D\uDE00",  # a surrogate pair, one code point in Unicode mode
        r"[\uD800-\uDFFF]",
        r"a{1001}",  # beyond RE2's repetition limit
    ],
)
def test_what_re2_cannot_mean_the_same_stays_on_regress(pattern: str) -> None:
    compile_pattern(pattern)
    assert not is_linear(pattern)


def test_nested_repetition_is_linear_when_translated() -> None:
    started = time.perf_counter()
    assert not search(r"^(a+)+$", RUNAWAY)
    assert search(r"^(a+)+$", "a" * 100_000)
    assert time.perf_counter() - started < 0.1


def test_a_runaway_backtracking_match_times_out_and_the_next_one_works() -> None:
    started = time.perf_counter()
    with verdict_budget(0.5), pytest.raises(PatternTimeout, match="took too long"):
        search(BACKTRACKING_FALLBACK, RUNAWAY)
    assert time.perf_counter() - started < 1.5
    assert search(BACKTRACKING_FALLBACK, "aaaa")
    assert not search(BACKTRACKING_FALLBACK, "aaa!")


def test_a_runaway_match_leaves_the_other_threads_running() -> None:
    bounded_regex.warm_up()
    outcome: list[BaseException | bool] = []

    def runaway() -> None:
        try:
            with verdict_budget(1.0):
                outcome.append(search(BACKTRACKING_FALLBACK, RUNAWAY))
        except PatternTimeout as exc:
            outcome.append(exc)

    thread = threading.Thread(target=runaway)
    thread.start()
    time.sleep(0.1)  # the match is under way in the child
    longest = 0.0
    while thread.is_alive():
        started = time.perf_counter()
        assert search(r"^[a-z]+$", "abc")
        time.sleep(0.001)
        longest = max(longest, time.perf_counter() - started)
    thread.join()
    assert isinstance(outcome[0], PatternTimeout)
    assert longest < 0.05


def test_a_lone_surrogate_is_refused_by_either_engine() -> None:
    for pattern in (r"^(a+)+$", BACKTRACKING_FALLBACK):
        with pytest.raises(UnicodeEncodeError):
            search(pattern, "a\ud800")


def test_a_schema_with_a_backtracking_pattern_is_isolated_and_fails_closed() -> None:
    check = SchemaCheck({"properties": {"x": {"type": "string", "pattern": BACKTRACKING_FALLBACK}}})
    assert check.isolated
    assert check.problems({"x": "aaaa"}) == []
    assert check.problems({"x": "aaa!"}) == ["$.x: 'aaa!' does not match '^(a+)+\\\\1$'"]
    started = time.perf_counter()
    [problem] = check.problems({"x": RUNAWAY})
    assert "pattern evaluation took too long" in problem
    assert time.perf_counter() - started < bounded_regex.VERDICT_BUDGET + 1


def test_pattern_properties_share_one_deadline() -> None:
    check = SchemaCheck(
        {"patternProperties": {BACKTRACKING_FALLBACK: {}}, "additionalProperties": False}
    )
    started = time.perf_counter()
    [problem] = check.problems({f"{RUNAWAY}{i}": 1 for i in range(5)})
    assert "took too long" in problem
    assert time.perf_counter() - started < bounded_regex.VERDICT_BUDGET + 1


def test_a_schema_whose_patterns_all_translate_is_not_isolated() -> None:
    check = SchemaCheck({"properties": {"x": {"pattern": r"^(a+)+$"}}})
    assert not check.isolated
    assert check.problems({"x": RUNAWAY}) == [f"$.x: {RUNAWAY!r} does not match '^(a+)+$'"]


@pytest.mark.anyio
async def test_a_dispatcher_judges_isolated_schemas_off_the_event_loop() -> None:
    dispatcher = Dispatcher(TOOLS)
    await dispatcher.call("nested_backreference", {"text": "aa"})  # compiled, child started
    longest = 0.0

    async def measure_lag() -> None:
        nonlocal longest
        for _ in range(100):
            started = time.perf_counter()
            await anyio.sleep(0.005)
            longest = max(longest, time.perf_counter() - started)

    async with anyio.create_task_group() as group:
        group.start_soon(measure_lag)
        await anyio.sleep(0.02)  # the lag is being measured
        result = await dispatcher.call("nested_backreference", {"text": RUNAWAY})
    assert isinstance(result, CallToolResult) and result.is_error
    assert "pattern evaluation took too long" in str(result.content[0])
    assert longest < 0.1


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_a_verdict_computed_on_the_event_loop_gets_a_short_deadline() -> None:
    check = SchemaCheck({"pattern": BACKTRACKING_FALLBACK})
    assert check.problems("aaaa") == []  # the child is up
    started = time.perf_counter()
    [problem] = check.problems(RUNAWAY)
    assert "took too long" in problem
    assert time.perf_counter() - started < LOOP_BUDGET + 0.3


def test_groups_nested_past_the_recursion_limit_are_not_translated() -> None:
    assert to_re2("(" * 3000 + "a" + ")" * 3000) is None
