"""Characters, patterns and texts on which RE2 and ECMA-262 engines are known to differ."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.differential.corpus_cases import patterns as patterns_of_the_corpus

# Where the dialects part: what counts as whitespace, a digit, a word character, a line end.
TRICKY = (
    "\t\n\v\f\r \x85\xa0\u1680\u180e\u2000\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff"
    "\x00\x08\x1f\x7f"
    "09٣५\U0001d7d8²"  # ASCII, Arabic-Indic and Devanagari digits, a math digit, a superscript
    "aAzZ_é\u017f\u212aß-"  # word characters, and letters that case-fold into ASCII
    "😀𐐷\U0010ffff"  # astral: one code point, two UTF-16 units
    "\\/.$^[]{}()|*+?"
)
ALPHABET = "ab" + TRICKY


def texts(max_size: int = 10) -> st.SearchStrategy[str]:
    """Short texts made mostly of characters the dialects disagree about."""
    return st.text(alphabet=st.sampled_from(ALPHABET), max_size=max_size)


# Real-world shapes: identifiers, dates, versions, e-mail and URL checks, keys of records.
REALISTIC = (
    r"^[a-z0-9-]+$",
    r"^[A-Za-z_][A-Za-z0-9_]*$",
    r"^\d{4}-\d{2}-\d{2}$",
    r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$",
    r"^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$",
    r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
    r"^https?://[^\s/$.?#].[^\s]*$",
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    r"^\S+$",
    r"^\s*$",
    r"\s",
    r"^.*$",
    r"^.+$",
    r"^[\s\S]*$",
    r"\bword\b",
    r"\Bb",
    r"^\w+$",
    r"^\W*$",
    r"^\D+$",
    r"^[^]$",
    r"[]",
    r"^$",
    r"",
    r"^\u00e9$",
    r"^\u{1F600}$",
    r"^.$",
    r"^..$",
    r"^[😀-😂]$",
    r"^[^a]$",
    r"^\cJ$",
    r"^\x41\0$",
    r"^[\b]$",
    r"^[\d-z]+$",
    r"^[-a]+$",
    r"^\/\.\$$",
    r"^(a+)+$",
    r"^(a|a)*$",
    r"^(a|ab)*c$",
    r"^([a-z]+\.)*[a-z]+$",
    r"^(?<year>\d{4})$",
    r"^a{2,3}?$",
    r"^(?:a{0,2}){2}$",
    r"^[\w.-]+$",
    r"[\t\v\f]",
    r"^[^\n]*$",
    r"^\p{L}+$",
    r"^(?=a)\w$",
    r"^(a)\1$",
    r"^\_$",
)


def known_patterns() -> list[str]:
    """Every regex of the corpus's schemas, then the real-world shapes above."""
    corpus = [case.pattern for case in patterns_of_the_corpus()]
    return [*corpus, *(pattern for pattern in REALISTIC if pattern not in corpus)]


_LITERALS = st.sampled_from([*"ab-_ é😀", r"\.", r"\$", r"\/", r"\\", r"\u00a0", r"\u2028"])
_ESCAPES = st.sampled_from(
    [
        r"\d",
        r"\D",
        r"\s",
        r"\S",
        r"\w",
        r"\W",
        ".",
        r"\t",
        r"\n",
        r"\r",
        r"\v",
        r"\f",
        r"\0",
        r"\cJ",
        r"\x20",
        r"\u{1F600}",
        r"\u{10FFFF}",
        r"\uFEFF",
        "[^]",
        "[]",
    ]
)
_CLASS_MEMBERS = st.sampled_from(
    [
        *"abz09_-",
        r"\d",
        r"\s",
        r"\w",
        r"\S",
        r"\W",
        r"\D",
        "a-z",
        "0-9",
        r"\u2000-\u200a",
        r"\t-\r",
        "😀",
        "é",
        r"\b",
        r"\-",
        r"\]",
        r"\u{1F600}-\u{1F64F}",
        " ",
    ]
)
_CLASSES = st.builds(
    lambda negated, members: "[" + ("^" if negated else "") + "".join(members) + "]",
    st.booleans(),
    st.lists(_CLASS_MEMBERS, min_size=1, max_size=4),
)
_QUANTIFIERS = st.sampled_from(
    ["", "", "*", "+", "?", "{2}", "{1,}", "{0,2}", "*?", "+?", "{1,3}?"]
)
_ASSERTIONS = st.sampled_from(["^", "$", r"\b", r"\B"])


def _quantified(atom: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(lambda a, q: a + q, atom, _QUANTIFIERS)


def _group(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    opening = st.sampled_from(["(", "(?:", "(?<g>"])
    groups = st.builds(lambda o, body: f"{o}{body})", opening, inner)
    branches = st.lists(inner, min_size=2, max_size=3).map("|".join)
    return _quantified(groups) | branches


def patterns() -> st.SearchStrategy[str]:
    """ECMA-262 patterns built from the constructs the RE2 translation handles."""
    atoms = _quantified(_LITERALS | _ESCAPES | _CLASSES) | _ASSERTIONS
    sequences = st.lists(atoms, min_size=1, max_size=4).map("".join)
    return st.recursive(
        sequences,
        lambda inner: st.lists(inner | _group(inner), min_size=1, max_size=3).map("".join),
        max_leaves=8,
    )
