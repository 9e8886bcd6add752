"""Warnings for schema regexes prone to catastrophic backtracking (`^(a+)+$`).

In a backtracking ECMA-262 engine (JavaScript's; regress, which defines the generated server's
verdicts), a pattern that repeats a repetition lets one short argument (25 characters against
`^(a+)+$`) keep the matcher busy for seconds. The generated server itself cannot stall: it
matches in linear time every pattern RE2 can read as ECMA-262 does, and the others in a child
process under a deadline, where such an argument makes the call fail instead. The warning
says which of the two applies. The test is the one safe-regex popularised:
unbounded repetition nested in unbounded repetition ("star height" above one), plus a repeated
alternation with two branches starting with the same character (`(a|ab)*`). It can warn about
a pattern that is in fact safe, and it does not find every dangerous one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .messages import Finding
from .sourcemap import JsonPath

try:  # The parser behind `re`: public in spirit, moved from `sre_parse` in Python 3.11.
    from re import _parser as regex_parser
except ImportError:  # pragma: no cover
    import sre_parse as regex_parser

_UNBOUNDED = regex_parser.MAXREPEAT
_REPEATS = {regex_parser.MAX_REPEAT, regex_parser.MIN_REPEAT, regex_parser.POSSESSIVE_REPEAT}
# ECMA-262 spellings Python's parser does not know, mapped to ones with the same shape.
_ECMA_TO_PYTHON = (
    (re.compile(r"\\[pP]\{[^}]*\}"), "a"),
    (re.compile(r"\(\?<(?=[A-Za-z_])"), "(?P<"),
)


def backtracking_findings(tools: list[Any]) -> list[Finding]:
    """A warning for each risky `pattern` / `patternProperties` key in the tools' input schemas."""
    findings: list[Finding] = []
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            continue
        for key in ("input_schema", "inputSchema"):
            for path, pattern in _patterns(tool.get(key), ("tools", index, key)):
                reason = backtracking_risk(pattern)
                if reason:
                    message = f"the pattern {pattern!r} {reason}: {_consequence(pattern)}"
                    findings.append(Finding(path, message, level="warning"))
    return findings


def _consequence(pattern: str) -> str:
    # Imported for a risky pattern only: the server's matcher loads RE2 and its child process.
    from mcpgen.runtime.validation.bounded_regex import VERDICT_BUDGET, is_linear

    rewrite = "; rewrite it without nested or overlapping repetition"
    if is_linear(pattern):
        return (
            "prone to catastrophic backtracking in JavaScript and other backtracking engines "
            "(this server matches it in linear time, clients checking arguments may not)" + rewrite
        )
    return (
        "prone to catastrophic backtracking, and this server must run it on a backtracking "
        "engine (RE2 cannot read it as ECMA-262 does), so a short argument can make a call "
        f"fail after {VERDICT_BUDGET:g} s with 'pattern evaluation took too long'" + rewrite
    )


def _patterns(schema: Any, path: JsonPath) -> Iterator[tuple[JsonPath, str]]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                yield (*path, key), value
            elif key == "patternProperties" and isinstance(value, dict):
                for pattern, subschema in value.items():
                    yield (*path, key, pattern), pattern
                    yield from _patterns(subschema, (*path, key, pattern))
            elif key not in ("const", "enum", "default", "examples"):
                yield from _patterns(value, (*path, key))
    elif isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _patterns(item, (*path, index))


def backtracking_risk(pattern: str) -> str | None:
    """Why `pattern` may backtrack exponentially, or None (also for patterns not parsed here)."""
    text = pattern
    for ecma, python in _ECMA_TO_PYTHON:
        text = ecma.sub(python, text)
    try:
        parsed = regex_parser.parse(text)
    except (re.error, RecursionError, OverflowError):
        return None
    return _risk(list(parsed), inside_repeat=False)


def _risk(items: list[tuple[Any, Any]], *, inside_repeat: bool) -> str | None:
    for op, value in items:
        for sub, repeated in _children(op, value):
            if repeated and inside_repeat:
                return "repeats a repetition"
            if repeated and _overlapping_branches(sub):
                return "repeats an alternation whose branches can match the same text"
            # `(?:-\d+)*`, `([a-z]+\.)*`: each round starts or ends with a character the
            # inner repetition cannot match, so the rounds cannot trade characters.
            separated = repeated and _separated(sub)
            found = _risk(sub, inside_repeat=(inside_repeat or repeated) and not separated)
            if found:
                return found
    return None


def _separated(body: list[tuple[Any, Any]]) -> bool:
    while len(body) == 1 and body[0][0] == regex_parser.SUBPATTERN:
        body = list(body[0][1][-1])
    ends = [body[0], body[-1]] if body else []
    separators = [value for op, value in ends if op == regex_parser.LITERAL]
    atoms = list(_repeated_atoms(body))
    return any(not any(_atom_matches(atom, char) for atom in atoms) for char in separators)


def _repeated_atoms(items: list[tuple[Any, Any]], repeated: bool = False) -> Iterator[Any]:
    """The single-character atoms that unbounded repetitions inside `items` can match."""
    for op, value in items:
        children = list(_children(op, value))
        if children:
            for sub, again in children:
                yield from _repeated_atoms(sub, repeated or again)
        elif repeated:
            yield op, value


def _atom_matches(atom: tuple[Any, Any], char: int) -> bool:
    """Whether a one-character atom can match `char`; True when unsure."""
    op, value = atom
    if op == regex_parser.LITERAL:
        return bool(value == char)
    if op == regex_parser.NOT_LITERAL:
        return bool(value != char)
    if op == regex_parser.IN:
        return _set_matches(value, char)
    if op in (regex_parser.AT,):
        return False
    return True


def _set_matches(members: list[tuple[Any, Any]], char: int) -> bool:
    negated = bool(members) and members[0][0] == regex_parser.NEGATE
    found = False
    for op, value in members:
        if op == regex_parser.LITERAL:
            found |= value == char
        elif op == regex_parser.RANGE:
            found |= value[0] <= char <= value[1]
        elif op == regex_parser.CATEGORY:
            found |= _category_matches(value, char)
        elif op != regex_parser.NEGATE:
            return True
    return found != negated


def _category_matches(category: Any, char: int) -> bool:
    text = chr(char)
    tests = {
        regex_parser.CATEGORY_DIGIT: text.isdigit(),
        regex_parser.CATEGORY_NOT_DIGIT: not text.isdigit(),
        regex_parser.CATEGORY_SPACE: text.isspace(),
        regex_parser.CATEGORY_NOT_SPACE: not text.isspace(),
        regex_parser.CATEGORY_WORD: text.isalnum() or text == "_",
        regex_parser.CATEGORY_NOT_WORD: not (text.isalnum() or text == "_"),
    }
    return tests.get(category, True)


def _children(op: Any, value: Any) -> Iterator[tuple[list[tuple[Any, Any]], bool]]:
    """Sub-patterns of one node, each with whether the node repeats it without bound."""
    if op in _REPEATS:
        _low, high, sub = value
        yield list(sub), high == _UNBOUNDED
    elif op == regex_parser.SUBPATTERN:
        yield list(value[-1]), False
    elif op == regex_parser.BRANCH:
        for branch in value[1]:
            yield list(branch), False
    elif op in (regex_parser.ASSERT, regex_parser.ASSERT_NOT):
        yield list(value[1]), False
    elif op == regex_parser.ATOMIC_GROUP:
        yield list(value), False


def _overlapping_branches(items: list[tuple[Any, Any]]) -> bool:
    """An alternation (outside nested groups' repeats) two of whose branches start alike.

    Python's parser factors a common prefix out (`a|aa` becomes `a(?:|a)`), which leaves an
    empty branch: that counts as overlapping too.
    """
    for op, value in items:
        if op == regex_parser.SUBPATTERN and _overlapping_branches(list(value[-1])):
            return True
        if op != regex_parser.BRANCH:
            continue
        branches = [list(branch) for branch in value[1]]
        if any(not branch for branch in branches):
            return True
        # Only branches that start with the same literal count: classes are left alone, or
        # every `([a-z]|-)+` would be reported.
        firsts = [first for branch in branches if (first := _first(branch)) is not None]
        if len(set(firsts)) < len(firsts):
            return True
    return False


def _first(items: list[tuple[Any, Any]]) -> int | None:
    """The literal a branch must start with, or None when it is not one fixed character."""
    if items and items[0][0] == regex_parser.LITERAL:
        first: int = items[0][1]
        return first
    return None
