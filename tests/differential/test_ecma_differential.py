"""Differential test: a pattern translated for RE2 matches exactly where regress matches
(`judges.re2`).

Patterns come from tests/corpus/ and the examples, from a list of real-world shapes and from a
grammar of every construct the translation handles; texts are drawn mostly from the
characters where RE2's and ECMA-262's defaults part (Unicode whitespace, line terminators,
other scripts' digits, astral characters). A disagreement means the translation is wrong for
that pattern: it must then return None (stay on regress) instead.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mcpgen.runtime.validation.linear_regex import linear_pattern
from mcpgen.runtime.validation.regex_worker import compile_unicode
from tests.differential import judges
from tests.differential.corpus_sample import SEARCH
from tests.differential.regex_samples import ALPHABET, known_patterns, patterns, texts
from tests.support import sweep

PATTERNS = known_patterns()
# Those RE2 runs; the others stay on regress, with nothing to compare.
TRANSLATED = [pattern for pattern in PATTERNS if linear_pattern(pattern) is not None]
SINGLE_CHARACTERS = [*ALPHABET, "", "ab", "a\n", "\na", "é😀", "a" * 3]


def disagreements(pattern: str, samples: list[str]) -> list[judges.Verdicts]:
    """The samples on which the RE2 program and regress answer differently."""
    verdicts = (judges.re2(pattern, text) for text in [*SINGLE_CHARACTERS, *samples])
    return [verdict for verdict in verdicts if not verdict.agree()]


def test_most_known_patterns_are_translated() -> None:
    assert len(TRANSLATED) >= len(PATTERNS) * 3 // 4


@pytest.mark.parametrize("pattern", TRANSLATED)
@settings(SEARCH, max_examples=sweep.examples(10, 100))
@given(samples=st.lists(texts(), min_size=20, max_size=20))
def test_known_patterns_agree(pattern: str, samples: list[str]) -> None:
    assert disagreements(pattern, samples) == []


@settings(SEARCH, max_examples=sweep.examples(40, 400))
@given(pattern=patterns(), samples=st.lists(texts(8), min_size=20, max_size=20))
def test_generated_patterns_agree(pattern: str, samples: list[str]) -> None:
    try:
        compile_unicode(pattern)
    except Exception:
        assume(False)  # not a Unicode-mode pattern: never translated
    assert linear_pattern(pattern) is not None, f"{pattern!r} was not translated"
    assert disagreements(pattern, samples) == []
