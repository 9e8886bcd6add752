"""ECMA-262 patterns translated for RE2: the same meaning, or left to regress; a translated
pattern is matched in process, in linear time."""

from __future__ import annotations

import time

import pytest

from mcpgen.runtime.validation.bounded_regex import is_linear, search
from mcpgen.runtime.validation.linear_regex import linear_pattern, to_re2
from mcpgen.runtime.validation.regex_worker import compile_pattern
from mcpgen.runtime.validation.schema_check import SchemaCheck

RUNAWAY = "a" * 30 + "!"


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
        # Every place in these texts is a boundary: RE2's `\B` must not find one between
        # the UTF-8 bytes of the non-ASCII character.
        (r"\B", "0\x850", False),
        (r"\B", "0é0", False),
        (r"\B", "a😀b", False),
        (r"a*\B", "0\u20280", False),
        (r"\B", "é😀", True),  # before é: no word character on either side
        (r"\Bb", "ab", True),
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


def test_a_schema_whose_patterns_all_translate_is_not_isolated() -> None:
    check = SchemaCheck({"properties": {"x": {"pattern": r"^(a+)+$"}}})
    assert not check.isolated
    assert check.problems({"x": RUNAWAY}) == [f"$.x: {RUNAWAY!r} does not match '^(a+)+$'"]


def test_groups_nested_past_the_recursion_limit_are_not_translated() -> None:
    assert to_re2("(" * 3000 + "a" + ")" * 3000) is None
