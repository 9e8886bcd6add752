"""Differential test: a pattern translated for RE2 matches exactly where regress matches.

Patterns come from tests/corpus/, from a list of real-world shapes and from a grammar of
every construct the translation handles; texts are drawn mostly from the characters where
RE2's and ECMA-262's defaults part (Unicode whitespace, line terminators, other scripts'
digits, astral characters). A disagreement means the translation is wrong for that pattern:
it must then return None (stay on regress) instead. `MCPGEN_REGEX_EXAMPLES` sets the number of
generated patterns (default 100).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mcpgen.runtime.validation.linear_regex import linear_pattern
from mcpgen.runtime.validation.regex_worker import compile_pattern, compile_unicode
from tests.differential.regex_samples import ALPHABET, REALISTIC, corpus_patterns, patterns, texts

EXAMPLES = int(os.environ.get("MCPGEN_REGEX_EXAMPLES", "100"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


def disagreements(pattern: str, samples: list[str]) -> list[str]:
    """The samples on which the RE2 program and regress answer differently."""
    linear = linear_pattern(pattern)
    assert linear is not None
    reference = compile_pattern(pattern)
    return [
        text
        for text in samples
        if (linear.search(text) is not None) != (reference.find(text) is not None)
    ]


def single_characters() -> list[str]:
    return [*ALPHABET, "", "ab", "a\n", "\na", "é😀", "a" * 3]


@pytest.mark.parametrize("pattern", [*corpus_patterns(), *REALISTIC])
@SETTINGS
@given(samples=st.lists(texts(), min_size=20, max_size=20))
def test_known_patterns_agree(pattern: str, samples: list[str]) -> None:
    if linear_pattern(pattern) is None:
        return  # stays on regress: nothing to compare
    assert disagreements(pattern, [*single_characters(), *samples]) == []


@SETTINGS
@given(pattern=patterns(), samples=st.lists(texts(8), min_size=20, max_size=20))
def test_generated_patterns_agree(pattern: str, samples: list[str]) -> None:
    try:
        compile_unicode(pattern)
    except Exception:
        assume(False)  # not a Unicode-mode pattern: never translated
    assert linear_pattern(pattern) is not None, f"{pattern!r} was not translated"
    assert disagreements(pattern, [*single_characters(), *samples]) == []
