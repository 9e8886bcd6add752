"""Pattern matching that cannot stall the server: a pattern RE2 cannot read as ECMA-262 does
runs in a child process under a deadline."""

from __future__ import annotations

import threading
import time

import anyio
import pytest
from mcp.types import CallToolResult

from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.validation import bounded_regex
from mcpgen.runtime.validation.bounded_regex import PatternTimeout, search, verdict_budget
from mcpgen.runtime.validation.schema_check import LOOP_BUDGET, SchemaCheck
from tests.support.runtime.redos_tools import TOOLS

RUNAWAY = "a" * 30 + "!"
# Exponential in regress, and not translatable (a back-reference): the child process runs it.
BACKTRACKING_FALLBACK = r"^(a+)+\1$"


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


@pytest.mark.anyio
async def test_a_verdict_computed_on_the_event_loop_gets_a_short_deadline() -> None:
    check = SchemaCheck({"pattern": BACKTRACKING_FALLBACK})
    assert check.problems("aaaa") == []  # the child is up
    started = time.perf_counter()
    [problem] = check.problems(RUNAWAY)
    assert "took too long" in problem
    assert time.perf_counter() - started < LOOP_BUDGET + 0.3
