# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""RFC 6570 templates turned around: URI → the raw (still percent-encoded) variable values.

A template compiles to one RE2 pattern, which matches in time linear in the URI whatever the
template's shape: `{+a}/{+b}/{+c}` against a URI of slashes included (a backtracking engine
took minutes on 3 KB of it). Where a template leaves a split open (`{a}{b}`, two `{+var}`),
RE2's answer is Perl's: leftmost, each variable in turn as long as it can be; `mcpgen
validate` warns about such templates (`ambiguities`). Templates are levels 1-3 with level 4's
modifiers read loosely: a prefix `{var:3}` is matched as the whole `{var}`, an explode
`{/var*}` as one value that may hold its separator.

Query expressions (`{?q}`, `{&n}`) come last: the URI's query is split into `name=value`
pairs, names taken as written (an encoded name is not a variable's: `%71=x` is no `q`), in
any order, others ignored. A path expression after a query expression is not supported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

# The longest URI a template is matched against: resources/read refuses longer ones at once.
MAX_URI_LENGTH = 64 * 1024

_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^{}]*)\}")
_MODIFIER = re.compile(r"(\*|:\d+)$")
_QUERY_OPERATORS = ("?", "&")
# Per operator: the character before the first value, the one between values, and the
# characters a value cannot hold (where a value ends). `+` and `#` values may hold `/`.
_OPERATORS: dict[str, tuple[str, str, str]] = {
    "": ("", ",", "/?#,&"),
    "+": ("", ",", "?#"),
    "#": ("#", ",", "?#"),
    ".": (".", ".", "/?#,&.;"),
    "/": ("/", "/", "/?#,&"),
    ";": (";", ";", "/?#,&;"),
}


class InvalidTemplate(ValueError):
    """A template this matcher cannot turn around (a query expression before a path one)."""


@dataclass(frozen=True)
class Variable:
    name: str
    operator: str
    explode: bool

    @property
    def multi_segment(self) -> bool:
        """Whether a value may hold `/`: reserved (`+`), fragment (`#`) or exploded."""
        return self.operator in ("+", "#") or self.explode

    @property
    def in_query(self) -> bool:
        return self.operator in _QUERY_OPERATORS


@dataclass(frozen=True)
class Expression:
    operator: str
    variables: tuple[Variable, ...]


def parse(template: str) -> list[str | Expression]:
    """The template as literal texts and expressions, in order."""
    parts: list[str | Expression] = []
    position = 0
    for match in _EXPRESSION.finditer(template):
        if match.start() > position:
            parts.append(template[position : match.start()])
        position = match.end()
        operator = match.group(1)
        variables = tuple(
            Variable(_MODIFIER.sub("", text), operator, text.endswith("*"))
            for text in match.group(2).split(",")
        )
        parts.append(Expression(operator, variables))
    if position < len(template):
        parts.append(template[position:])
    return parts


def _query_start(parts: list[str | Expression]) -> int:
    """Where the trailing query expressions start (len(parts) when there are none)."""
    for index, part in enumerate(parts):
        if isinstance(part, Expression) and part.operator in _QUERY_OPERATORS:
            return index
    return len(parts)


def query_misplaced(template: str) -> bool:
    """Whether something other than query expressions follows the first query expression."""
    parts = parse(template)
    start = _query_start(parts)
    return any(
        not isinstance(part, Expression) or part.operator not in _QUERY_OPERATORS
        for part in parts[start:]
    )


def _value_class(variable: Variable) -> str:
    _, separator, stops = _OPERATORS[variable.operator]
    if variable.explode:  # the values of a list, joined by the separator
        stops = stops.replace(separator, "")
    return "[^" + re.escape(stops) + "]*"


def _expression_pattern(expression: Expression, first_group: int) -> str:
    prefix, separator, _ = _OPERATORS[expression.operator]
    pieces = []
    for offset, variable in enumerate(expression.variables):
        value = f"(?P<v{first_group + offset}>{_value_class(variable)})"
        if expression.operator == ";":  # named: `;x=1`, or `;x` for an empty value
            value = f"{re.escape(variable.name)}(?:={value})?"
        pieces.append(value)
    return re.escape(prefix) + re.escape(separator).join(pieces)


class UriTemplate:
    """One template: its variables, and the raw values a URI gives them."""

    def __init__(self, template: str) -> None:
        self.template = template
        parts = parse(template)
        start = _query_start(parts)
        if query_misplaced(template):
            raise InvalidTemplate(f"{template!r}: a query expression must come last")
        self.path_variables: list[Variable] = []
        pattern = ""
        for part in parts[:start]:
            if isinstance(part, str):
                pattern += re.escape(part)
            else:
                pattern += _expression_pattern(part, len(self.path_variables))
                self.path_variables += part.variables
        self.query_variables: list[Variable] = [
            v for part in parts[start:] if isinstance(part, Expression) for v in part.variables
        ]
        if self.query_variables:
            # The literal text before the query may hold a `?` of its own (`x?a=1{&b}`).
            # A fragment after the query names no variable: it is ignored.
            pattern += r"(?:[?&](?P<query>[^#]*))?(?:#(?s:.*))?"
        self._pattern = pattern

    @property
    def variables(self) -> list[Variable]:
        return [*self.path_variables, *self.query_variables]

    @cached_property
    def _compiled(self) -> Any:
        # Imported on the first read, off the server's start-up path; google-re2 ships no types.
        import re2  # type: ignore[import-untyped]  # noqa: PLC0415

        options = re2.Options()
        options.log_errors = False
        return re2.compile(self._pattern, options)

    def match(self, uri: str) -> tuple[dict[str, str], list[tuple[str, str]]] | None:
        """The path variables' raw values and the query's raw (name, value) pairs, or None.

        `uri` must be at most `MAX_URI_LENGTH` long (the caller refuses longer ones).
        """
        found = self._compiled.fullmatch(uri)
        if found is None:
            return None
        values = {v.name: found.group(f"v{i}") or "" for i, v in enumerate(self.path_variables)}
        query = found.group("query") if self.query_variables else None
        return values, query_pairs(query or "")


def query_pairs(query: str) -> list[tuple[str, str]]:
    """`a=1&b&c=` as [("a", "1"), ("b", ""), ("c", "")]: names and values still encoded.

    `+` stays a `+` (RFC 3986, not an HTML form): only `%20` is a space.
    """
    pairs = []
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        if name:
            pairs.append((name, value))
    return pairs


def ambiguities(template: str) -> list[str]:
    """What leaves a URI's split between variables open: nothing between two variables, or
    more than one variable that may hold `/`. [] for a template with one answer per URI."""
    found = []
    between = "x"  # the literal text since the last variable ("x": no variable yet)
    last: Variable | None = None
    for part in parse(template):
        if isinstance(part, str):
            between += part
            continue
        prefix, separator, _ = _OPERATORS.get(part.operator, ("?", "&", ""))
        named = part.operator in (";", *_QUERY_OPERATORS)
        for index, variable in enumerate(part.variables):
            between += (prefix if index == 0 else separator) + (variable.name if named else "")
            if last is not None and not between:
                found.append(f"{{{last.name}}} and {{{variable.name}}} have nothing between them")
            last, between = variable, ""
    multi = [v.name for v in parse_variables(template) if v.multi_segment and not v.in_query]
    if len(multi) > 1:
        found.append(", ".join(f"{{{name}}}" for name in multi) + " may each hold '/'")
    return found


def parse_variables(template: str) -> list[Variable]:
    return [v for part in parse(template) if isinstance(part, Expression) for v in part.variables]
