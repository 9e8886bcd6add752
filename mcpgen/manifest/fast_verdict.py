"""jsonschema-rs verdicts that let a sound manifest be checked without loading `jsonschema`.

The verdicts and the messages stay python `jsonschema`'s: each function here only answers
"does the reference certainly accept this?", and answers yes only where jsonschema-rs is given
the same schemas read the same way (the reference's own metaschema documents, `pattern`
matched by the reference's regex engine, formats not asserted, nothing fetched) and accepts.
Everything else (a rejection, a schema it cannot build, an instance it cannot read, a keyword
it would judge with its own regex engine) goes to the reference, which finds the problems and
words them. Importing jsonschema and referencing takes longer than checking a small manifest
with jsonschema-rs, which `mcpgen validate` would otherwise pay on every run.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from mcpgen.manifest.ecma_regex import search as ecma_search

Matcher = Callable[[str, str], bool]

# The keyword jsonschema-rs would evaluate with its own regex engine (and with it
# `additionalProperties`, which depends on which keys the patterns match): the reference alone
# judges a schema that has it. So it does an argument schema with a `$schema` below the root,
# which may switch drafts in a way the two libraries need not agree on.
_OWN_JUDGEMENT = frozenset({"patternProperties"})


def _python_search(pattern: str, text: str) -> bool:
    # What jsonschema's own `pattern` keyword does.
    return re.search(pattern, text) is not None


def _pattern_keyword(matcher: Matcher) -> type:
    class Pattern:
        """jsonschema-rs keyword `pattern`, matched by `matcher` as the reference matches it."""

        def __init__(self, parent_schema: Any, value: Any, schema_path: Any) -> None:
            self._pattern = value

        def validate(self, instance: Any) -> None:
            if isinstance(instance, str) and not matcher(self._pattern, instance):
                raise ValueError(f"{instance!r} does not match {self._pattern!r}")

    return Pattern


_PYTHON_PATTERN = _pattern_keyword(_python_search)
_ECMA_PATTERN = _pattern_keyword(ecma_search)


def _refuse(uri: str) -> Any:
    raise ValueError(f"{uri} is not retrieved")


def _mentions(schema: Any, keys: frozenset[str], *, nested_schema: bool = False) -> bool:
    """Whether any mapping inside `schema` has one of `keys` (or, with `nested_schema`, a
    `$schema` anywhere below the root). Over-approximate on purpose: it does not tell a
    keyword from a property of the same name."""
    stack = [(schema, True)]
    while stack:
        value, is_root = stack.pop()
        if isinstance(value, dict):
            if not keys.isdisjoint(value) or (nested_schema and not is_root and "$schema" in value):
                return True
            stack.extend((item, False) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, False) for item in value)
    return False


def _build(schema: Mapping[str, Any], draft: str, pattern: type) -> Any:
    import jsonschema_rs  # a manifest with no schema to check never needs it

    cls = {
        "draft4": jsonschema_rs.Draft4Validator,
        "draft6": jsonschema_rs.Draft6Validator,
        "draft7": jsonschema_rs.Draft7Validator,
        "draft201909": jsonschema_rs.Draft201909Validator,
        "draft202012": jsonschema_rs.Draft202012Validator,
    }[draft]
    return cls(
        dict(schema),
        validate_formats=False,
        retriever=_refuse,
        keywords={"pattern": pattern},
    )


def _accepts(validator: Any, instance: Any) -> bool:
    if validator is None:
        return False
    try:
        return bool(validator.is_valid(instance))
    except Exception:  # an instance jsonschema-rs cannot read: the reference decides
        return False


@cache
def _manifest_validator(schema_text: str) -> Any:
    schema = json.loads(schema_text)
    if _mentions(schema, _OWN_JUDGEMENT):
        return None
    try:
        return _build(schema, "draft202012", _PYTHON_PATTERN)
    except Exception:
        return None


def manifest_accepts(schema_text: str, data: Any) -> bool:
    """True only if the manifest's schema (2020-12, patterns read by Python's `re`, as the
    reference validator reads them) certainly accepts `data`."""
    return _accepts(_manifest_validator(schema_text), data)


def reference_metaschema(draft: str) -> dict[str, Any]:
    """The metaschema document of `draft` that `jsonschema` validates with, read from the
    package that ships it to jsonschema (without importing either)."""
    spec = importlib.util.find_spec("jsonschema_specifications")
    if spec is None or not spec.submodule_search_locations:
        raise LookupError("jsonschema_specifications is not installed")
    folder = Path(next(iter(spec.submodule_search_locations)))
    document: dict[str, Any] = json.loads(
        (folder / "schemas" / draft / "metaschema.json").read_text("utf-8")
    )
    return document


@cache
def _metaschema_validator(draft: str) -> Any:
    # The reference's document as the root: jsonschema-rs's own copy of draft-04 drops
    # `enum`'s `minItems: 1`. The 2019-09 and 2020-12 vocabularies it refers to are
    # jsonschema-rs's built-in copies, the same documents as the reference's (a test checks).
    try:
        return _build(reference_metaschema(draft), draft, _PYTHON_PATTERN)
    except Exception:
        return None


def meets_metaschema(draft: str, schema: Any) -> bool:
    """True only if `schema` certainly passes the metaschema of `draft` as the reference
    checks it (no format assertions; `$anchor` and the like matched by Python's `re`)."""
    return _accepts(_metaschema_validator(draft), schema)


_arguments_validators: dict[tuple[str, str], Any] = {}
_ARGUMENTS_CACHE_LIMIT = 2_000


def arguments_accept(schema: Mapping[str, Any], draft: str, arguments: Any) -> bool:
    """True only if `schema`, read in `draft` with ECMA-262 patterns and nothing fetched,
    certainly accepts `arguments`."""
    try:
        key = (draft, json.dumps(schema, sort_keys=True))
    except (TypeError, ValueError):
        return False
    if key not in _arguments_validators:
        if len(_arguments_validators) >= _ARGUMENTS_CACHE_LIMIT:
            _arguments_validators.clear()
        validator = None
        if not _mentions(schema, _OWN_JUDGEMENT, nested_schema=True):
            try:
                validator = _build(schema, draft, _ECMA_PATTERN)
            except Exception:
                validator = None
        _arguments_validators[key] = validator
    return _accepts(_arguments_validators[key], arguments)
