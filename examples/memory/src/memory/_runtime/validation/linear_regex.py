# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""ECMA-262 patterns rewritten for RE2, whose matching time is linear in the text.

The backtracking engine that defines the verdicts (`regress`) spends exponential time on
patterns such as `^(a+)+$`, holding the GIL all along. Most schema patterns use only what
RE2 also has: literals, classes, groups, alternation, greedy or lazy repetition, `^`, `$`,
`\\b`. Those are rewritten with every construct spelled out (each character as `\\x{…}`,
each class as explicit code-point ranges) so that nothing depends on where RE2's defaults
differ from ECMA-262's (`\\s`, `.`, `$`). Anything else — back-references, look-around,
`\\p{…}`, legacy (non-Unicode) syntax, surrogate escapes — is not translated: `to_re2`
returns None and the pattern stays on the backtracking engine.

Only patterns regress accepts in Unicode mode reach the parser here, so it may refuse
(return None) on anything unexpected without judging validity.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from .regex_worker import compile_unicode, is_declared_valid

MAX_CODE_POINT = 0x10FFFF
SURROGATES = (0xD800, 0xDFFF)
# RE2 refuses counted repetition above this.
_MAX_REPEAT = 1000

Ranges = list[tuple[int, int]]

_DIGIT: Ranges = [(0x30, 0x39)]
_WORD: Ranges = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
# ECMA-262 WhiteSpace (TAB VT FF ZWNBSP and every Zs) plus LineTerminator.
_SPACE: Ranges = [
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
]
_LINE_TERMINATORS: Ranges = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]
_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SYNTAX = set("^$\\.*+?()[]{}|")
_DIGITS = set("0123456789")


class _Untranslatable(Exception):
    """The pattern uses something RE2 lacks or reads otherwise."""


def complement(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Every code point not in `ranges`."""
    result: Ranges = []
    start = 0
    for low, high in normalised(ranges):
        if low > start:
            result.append((start, low - 1))
        start = high + 1
    if start <= MAX_CODE_POINT:
        result.append((start, MAX_CODE_POINT))
    return result


def normalised(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Sorted, merged ranges."""
    merged: Ranges = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
        else:
            merged.append((low, high))
    return merged


def _class(ranges: Iterable[tuple[int, int]]) -> str:
    members = normalised(ranges)
    if not members:
        return r"[^\x{0}-\x{10FFFF}]"  # matches nothing, like ECMA-262's `[]`
    body = "".join(
        f"\\x{{{low:X}}}" if low == high else f"\\x{{{low:X}}}-\\x{{{high:X}}}"
        for low, high in members
    )
    return f"[{body}]"


def _char(code: int) -> str:
    if SURROGATES[0] <= code <= SURROGATES[1]:
        raise _Untranslatable("surrogate")  # u-mode pairs them; RE2 texts never hold them
    return f"\\x{{{code:X}}}"


def _written(low: int, high: int) -> tuple[int, int]:
    """A range the pattern spells out: one touching surrogates is left to regress."""
    if low <= SURROGATES[1] and high >= SURROGATES[0]:
        raise _Untranslatable("surrogate in class")
    return low, high


class _Translator:
    """A recursive-descent reading of the ECMA-262 Unicode-mode pattern grammar."""

    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.at = 0
        self.non_boundary = False  # the pattern holds a `\B`

    def peek(self, ahead: int = 0) -> str:
        index = self.at + ahead
        return self.text[index] if index < len(self.text) else ""

    def take(self) -> str:
        char = self.peek()
        if not char:
            raise _Untranslatable("unexpected end")
        self.at += 1
        return char

    def translate(self) -> str:
        result = self.disjunction()
        if self.at != len(self.text):
            raise _Untranslatable("unbalanced")
        return result

    def disjunction(self) -> str:
        branches = [self.alternative()]
        while self.peek() == "|":
            self.at += 1
            branches.append(self.alternative())
        return "|".join(branches)

    def alternative(self) -> str:
        parts: list[str] = []
        while self.peek() not in ("", "|", ")"):
            parts.append(self.term())
        return "".join(parts)

    def term(self) -> str:
        char = self.peek()
        if char == "^":
            self.at += 1
            return r"\A"
        if char == "$":
            self.at += 1
            return r"\z"
        if char == "\\" and self.peek(1) in ("b", "B"):
            self.at += 2
            self.non_boundary |= self.text[self.at - 1] == "B"
            return "\\" + self.text[self.at - 1]  # both engines: ASCII word characters
        return self.atom() + self.quantifier()

    def quantifier(self) -> str:
        char = self.peek()
        if char in ("*", "+", "?"):
            self.at += 1
            spelled = char
        elif char == "{":
            spelled = self.braces()
        else:
            return ""
        if self.peek() == "?":
            self.at += 1
            spelled += "?"
        return spelled

    def braces(self) -> str:
        end = self.text.find("}", self.at)
        if end < 0:
            raise _Untranslatable("brace")
        low, comma, high = self.text[self.at + 1 : end].partition(",")
        if not (low and set(low) <= _DIGITS and set(high) <= _DIGITS):
            raise _Untranslatable("brace")
        if int(low) > _MAX_REPEAT or (high and int(high) > _MAX_REPEAT):
            raise _Untranslatable("repeat too large for RE2")
        self.at = end + 1
        return "{" + low + comma + high + "}"

    def atom(self) -> str:
        char = self.take()
        if char == ".":
            return _class(complement(_LINE_TERMINATORS))
        if char == "(":
            return self.group()
        if char == "[":
            return _class(self.class_ranges())
        if char == "\\":
            return self.atom_escape()
        if char in _SYNTAX:
            raise _Untranslatable(f"syntax character {char!r}")
        return _char(ord(char))

    def group(self) -> str:
        if self.peek() == "?":
            if self.peek(1) == ":":
                self.at += 2
            elif self.peek(1) == "<" and self.peek(2) not in ("=", "!"):
                end = self.text.find(">", self.at)
                if end < 0:
                    raise _Untranslatable("group name")
                self.at = end + 1
            else:
                raise _Untranslatable("look-around")
        inner = self.disjunction()
        if self.take() != ")":
            raise _Untranslatable("group")
        return f"(?:{inner})"

    def atom_escape(self) -> str:
        char = self.peek()
        if char in _DIGITS - {"0"} or char == "k":
            raise _Untranslatable("back-reference")
        ranges = self.class_escape()
        if ranges is not None:
            return _class(ranges)
        return _char(self.character_escape())

    def class_escape(self) -> Ranges | None:
        """`\\d \\D \\s \\S \\w \\W` as ranges; None for other escapes (not consumed)."""
        char = self.peek()
        sets = {"d": _DIGIT, "s": _SPACE, "w": _WORD}
        if char.lower() in sets:
            self.at += 1
            ranges = sets[char.lower()]
            return complement(ranges) if char.isupper() else list(ranges)
        if char in ("p", "P"):
            raise _Untranslatable("property escape")  # Unicode versions may differ
        return None

    def character_escape(self) -> int:
        char = self.take()
        if char in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[char]
        if char == "c":
            letter = self.take()
            if not (letter.isascii() and letter.isalpha()):
                raise _Untranslatable("control escape")
            return ord(letter) % 32
        if char == "0" and self.peek() not in _DIGITS:
            return 0
        if char == "x":
            return self.hex_digits(2)
        if char == "u":
            return self.unicode_escape()
        if char in _SYNTAX or char == "/":
            return ord(char)
        raise _Untranslatable(f"escape \\{char}")

    def unicode_escape(self) -> int:
        if self.peek() != "{":
            return self.hex_digits(4)
        end = self.text.find("}", self.at)
        digits = self.text[self.at + 1 : end] if end > 0 else ""
        self.at = end + 1
        return self.parse_hex(digits)

    def hex_digits(self, count: int) -> int:
        digits = self.text[self.at : self.at + count]
        self.at += count
        if len(digits) != count:
            raise _Untranslatable("hex escape")
        return self.parse_hex(digits)

    @staticmethod
    def parse_hex(digits: str) -> int:
        if not digits or not all(d in "0123456789abcdefABCDEF" for d in digits):
            raise _Untranslatable("hex escape")
        code = int(digits, 16)
        if code > MAX_CODE_POINT:
            raise _Untranslatable("code point")
        return code

    def class_ranges(self) -> Ranges:
        negated = self.peek() == "^"
        if negated:
            self.at += 1
        ranges: Ranges = []
        while self.peek() != "]":
            low = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.at += 1
                high = self.class_atom()
                if isinstance(low, list) or isinstance(high, list) or low > high:
                    raise _Untranslatable("class range")
                ranges.append(_written(low, high))
            else:
                ranges.extend(low if isinstance(low, list) else [_written(low, low)])
        self.at += 1
        return complement(ranges) if negated else ranges

    def class_atom(self) -> int | Ranges:
        char = self.take()
        if char != "\\":
            return ord(char)
        if self.peek() == "b":
            self.at += 1
            return 0x08
        if self.peek() == "-":
            self.at += 1
            return ord("-")
        ranges = self.class_escape()
        if ranges is not None:
            return ranges
        if self.peek() in _DIGITS - {"0"}:
            raise _Untranslatable("decimal escape in class")
        return self.character_escape()


def to_re2(pattern: str) -> str | None:
    """`pattern` in RE2 syntax with the same matches, or None when that is not sure."""
    if not is_declared_valid(pattern):
        try:
            compile_unicode(pattern)
        except Exception:
            return None  # legacy-mode or invalid: left to the backtracking engine
    translator = _Translator(pattern)
    try:
        translated = translator.translate()
    except (_Untranslatable, RecursionError):  # RecursionError: groups nested thousands deep
        return None
    if translator.non_boundary:
        # RE2 searches UTF-8 bytes and its `\B` holds between two bytes of one character
        # (neither is an ASCII word byte): in `0\x{85}0` it finds a `\B` inside U+0085,
        # where ECMA-262, reading code points, sees only boundaries. Starting each try at a
        # code point (the text's start, then whole characters) keeps `\B` off those places.
        return f"\\A{_class([(0, MAX_CODE_POINT)])}*?(?:{translated})"
    return translated


def _options(re2: Any) -> Any:
    options = re2.Options()
    options.never_capture = True  # only whether it matches is asked
    options.log_errors = False  # a refused pattern is expected, not news for stderr
    return options


@lru_cache(maxsize=4096)
def linear_pattern(pattern: str) -> Any:
    """The RE2 program for `pattern` (its `search(text)` is a match or None), or None when the
    pattern must run on the backtracking engine."""
    translated = to_re2(pattern)
    if translated is None:
        return None
    # Imported on first use, off the server's start-up path; google-re2 ships no types.
    import re2  # type: ignore[import-untyped]  # noqa: PLC0415

    try:
        return re2.compile(translated, _options(re2))
    except re2.error:
        return None  # e.g. repetition nested past RE2's size limit
