"""Every judge pair of the differential tier: one function per pair asks mcpgen's engine and
its reference the same question and returns both answers.

judge              mcpgen's answer                                 reference
fast_manifest      fast_verdict.manifest_accepts (jsonschema-rs)   jsonschema, the manifest schema
fast_metaschema    fast_verdict.meets_metaschema (jsonschema-rs)   jsonschema, the draft metaschema
fast_arguments     fast_verdict.arguments_accept (jsonschema-rs)   jsonschema, ECMA-262 regexes
plain_closure      plain_schema's closures, and jsonschema-rs      jsonschema
jsonschema_rs      the runtime's jsonschema-rs validator           jsonschema, ECMA-262 regexes
schema_check       SchemaCheck.problems (the runtime's verdict)    jsonschema, ECMA-262 regexes
dispatcher         Dispatcher.admit (verdict, then the model)      jsonschema; the literal verdict
regex_literal      SchemaCheck, patterns inside applicators        jsonschema on literal patterns
re2                the RE2 translation (linear_regex)              regress (ECMA-262)

The fast paths' pairs (the SDK's transports against mcpgen's) live in `fast_path_*.py`.
A fast verdict need only be `sound` (it accepts only what the reference accepts: a rejection
goes to the reference); every other pair must `agree`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema_rs import validator_for as rust_validator_for
from mcp.types import CallToolResult
from pydantic import BaseModel, ConfigDict

from mcpgen.manifest import fast_verdict
from mcpgen.manifest.ecma_regex import with_ecma_regex as with_manifest_ecma_regex
from mcpgen.manifest.tool_schema import _metaschema_validator, dialect_of, reference_class
from mcpgen.manifest.validate import manifest_json_schema_text
from mcpgen.runtime.dispatch.dispatcher import Dispatcher, ToolSpec
from mcpgen.runtime.validation.ecma_regex import with_ecma_regex
from mcpgen.runtime.validation.linear_regex import linear_pattern
from mcpgen.runtime.validation.plain_schema import compile_plain
from mcpgen.runtime.validation.regex_worker import compile_pattern
from mcpgen.runtime.validation.schema_check import SchemaCheck, non_finite
from tests.differential.applicator_schemas import literal_verdict


@dataclass(frozen=True)
class Verdicts:
    """Each engine's answer to one question, mcpgen's first (the repr is the failure message)."""

    judge: str
    question: Any
    answers: dict[str, Any]

    def agree(self) -> bool:
        first, *others = self.answers.values()
        return all(other == first for other in others)

    def sound(self) -> bool:
        """mcpgen accepts only what every reference accepts."""
        ours, *references = self.answers.values()
        return not ours or all(references)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# Manifest checks (`mcpgen validate`): jsonschema-rs where it certainly agrees.


@cache
def _manifest_reference() -> tuple[str, Any]:
    text = manifest_json_schema_text()
    return text, Draft202012Validator(json.loads(text))


def fast_manifest(data: Any) -> Verdicts:
    text, reference = _manifest_reference()
    answers = {"fast verdict": fast_verdict.manifest_accepts(text, data)}
    answers["jsonschema"] = bool(reference.is_valid(data))
    return Verdicts("fast_manifest", data, answers)


def fast_metaschema(draft: str, schema: Any) -> Verdicts:
    answers = {"fast verdict": fast_verdict.meets_metaschema(draft, schema)}
    answers["jsonschema"] = bool(_metaschema_validator(draft).is_valid(schema))
    return Verdicts("fast_metaschema", (draft, schema), answers)


def draft_of(schema: Any) -> str:
    return dialect_of(schema) or "draft202012"


@cache
def _arguments_reference(key: str) -> Any:
    schema = json.loads(key)
    return with_manifest_ecma_regex(reference_class(draft_of(schema)))(schema)


def fast_arguments(schema: dict[str, Any], instance: Any) -> Verdicts:
    answers = {"fast verdict": fast_verdict.arguments_accept(schema, draft_of(schema), instance)}
    answers["jsonschema"] = bool(_arguments_reference(_key(schema)).is_valid(instance))
    return Verdicts("fast_arguments", (schema, instance), answers)


# The runtime's verdicts on a tool's arguments.


@cache
def reference_validator(key: str) -> Any:
    """python jsonschema in the schema's draft (2020-12 by default), regexes as ECMA-262;
    None when it cannot be built (a server must then refuse everything)."""
    schema = json.loads(key)
    try:
        return with_ecma_regex(validators.validator_for(schema, Draft202012Validator))(schema)
    except Exception:
        return None


def reference_accepts(schema: Any, instance: Any) -> bool:
    """The reference's verdict; a reference that cannot judge refuses."""
    reference = reference_validator(_key(schema))
    if reference is None:
        return False
    try:
        return bool(reference.is_valid(instance))
    except Exception:
        return False


@cache
def _schema_check(key: str) -> Any:
    return SchemaCheck(json.loads(key))


@cache
def _plain(key: str) -> Any:
    predicate = compile_plain(json.loads(key))
    assert predicate is not None, "not a plain schema"
    return predicate


@cache
def _rust(key: str) -> Any:
    return rust_validator_for(json.loads(key), validate_formats=False)


def json_value(instance: Any) -> bool:
    """Whether `instance` can travel as JSON: finite numbers, strings encodable as UTF-8."""
    try:
        json.dumps(instance, allow_nan=False, ensure_ascii=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        return False
    return not non_finite(instance)


def plain_closure(schema: Any, instance: Any) -> Verdicts:
    """A plain schema's closures and jsonschema-rs (on what JSON can carry: it reads neither
    NaN nor lone surrogates) against the reference."""
    answers = {"plain closure": bool(_plain(_key(schema))(instance))}
    if json_value(instance):
        answers["jsonschema-rs"] = bool(_rust(_key(schema)).is_valid(instance))
    answers["jsonschema"] = bool(reference_validator(_key(schema)).is_valid(instance))
    return Verdicts("plain_closure", (schema, instance), answers)


def jsonschema_rs(schema: Any, instance: Any) -> Verdicts | None:
    """The runtime's jsonschema-rs validator against the reference; None when the runtime
    does not hand this schema to jsonschema-rs (plain, or `patternProperties`)."""
    check = _schema_check(_key(schema))
    if check._fast is None:
        return None
    answers = {"jsonschema-rs": bool(check._fast.is_valid(instance))}
    answers["jsonschema"] = not check.reference_problems(instance)
    return Verdicts("jsonschema_rs", (schema, instance), answers)


def schema_check(schema: Any, instance: Any) -> Verdicts:
    """The runtime's verdict, words and all, against the reference's problems (a NaN or an
    infinity fails every schema: JSON has none)."""
    check = _schema_check(_key(schema))
    answers = {"SchemaCheck": check.problems(instance)}
    answers["jsonschema"] = non_finite(instance) or check.reference_problems(instance)
    return Verdicts("schema_check", (schema, instance), answers)


class AnyArguments(BaseModel):
    """Whatever arguments the schema admitted: the verdict is the schema's alone."""

    model_config = ConfigDict(extra="allow")


def _never_called(arguments: AnyArguments) -> None:
    raise AssertionError("a verdict must not run the handler")


@cache
def _dispatcher(key: str) -> Any:
    definition = {"name": "t", "inputSchema": json.loads(key)}
    spec = ToolSpec(definition, input_model=AnyArguments, handler=_never_called, handler_path="")
    return Dispatcher([spec])


def dispatcher(schema: Any, instance: Any) -> Verdicts:
    """`Dispatcher.admit` against the reference, and the reference against the literal
    verdict, which shares no regex plumbing with it."""
    admitted = _dispatcher(_key(schema)).admit("t", instance)
    refused = isinstance(admitted, CallToolResult)
    assert not refused or admitted.is_error, f"a refusal is an error result: {admitted}"
    answers = {"Dispatcher.admit": not refused, "jsonschema": reference_accepts(schema, instance)}
    if reference_validator(_key(schema)) is not None:
        answers["literal verdict"] = literal_verdict(schema, instance)
    return Verdicts("dispatcher", (schema, instance), answers)


def regex_literal(schema: dict[str, Any], instance: Any) -> Verdicts:
    """`SchemaCheck` where which keys or items `unevaluated*` sees depends on regex matches,
    against jsonschema judging the same schema with each pattern spelled as the strings regress
    finds it in."""
    answers = {"SchemaCheck": _schema_check(_key(schema)).problems(instance) == []}
    answers["literal verdict"] = literal_verdict(schema, instance)
    return Verdicts("regex_literal", (schema, instance), answers)


def re2(pattern: str, text: str) -> Verdicts:
    """The RE2 program for a translated pattern against regress; both search `text`."""
    linear = linear_pattern(pattern)
    assert linear is not None, f"{pattern!r} is not translated"
    answers = {"RE2": linear.search(text) is not None}
    answers["regress"] = compile_pattern(pattern).find(text) is not None
    return Verdicts("re2", (pattern, text), answers)
