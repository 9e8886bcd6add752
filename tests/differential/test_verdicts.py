"""Differential test: the runtime's verdict on generated arguments equals the reference's.

For every tool schema in the corpus and the examples, hypothesis draws valid instances
(hypothesis-jsonschema) and instances one mutation away (`schema_cases`). The server side is
the runtime's `Dispatcher.admit` (validation, then the typed model); the reference is python
`jsonschema` for the schema's draft with ECMA-262 regexes. A reference that raises means the
server must refuse. `MCPGEN_VERDICT_EXAMPLES` sets the draws per schema (CI: 2); the counts
per category are printed at the end of the run.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators
from mcp.types import CallToolResult
from pydantic import BaseModel, ConfigDict

from mcpgen.manifest import load_manifest
from mcpgen.render.publish import published_definition
from mcpgen.runtime.dispatch.dispatcher import Dispatcher, ToolSpec
from mcpgen.runtime.testing.schema_cases import Case, cases
from mcpgen.runtime.validation.ecma_regex import with_ecma_regex
from mcpgen.runtime.validation.schema_check import SchemaCheck
from tests.differential import tally
from tests.differential.applicator_schemas import (
    array_schemas,
    arrays,
    literal_verdict,
    object_schemas,
    objects,
)
from tests.differential.regex_samples import REALISTIC, corpus_patterns, texts
from tests.support.corpus import manifest_files, real_files

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("MCPGEN_VERDICT_EXAMPLES", "2"))


class AnyArguments(BaseModel):
    model_config = ConfigDict(extra="allow")


def _never_called(arguments: AnyArguments) -> None:
    raise AssertionError("a verdict must not run the handler")


def tool_schemas() -> list[Any]:
    found = []
    for path in real_files():
        for tool in json.loads(path.read_text(encoding="utf-8")):
            found.append(pytest.param(tool["inputSchema"], id=f"{path.stem}:{tool['name']}"))
    manifests = manifest_files()
    manifests += sorted((REPO / "examples").glob("*/mcpgen.yaml"))
    for path in manifests:
        manifest = load_manifest(path)
        for tool in manifest.tools:
            schema = published_definition(manifest, tool)["inputSchema"]
            found.append(pytest.param(schema, id=f"{path.parent.name}/{path.stem}:{tool.name}"))
    return found


@cache
def _judges(key: str) -> tuple[Dispatcher, Any, st.SearchStrategy[Case]]:
    schema = json.loads(key)
    definition = {"name": "t", "inputSchema": schema}
    dispatcher = Dispatcher(
        [ToolSpec(definition, input_model=AnyArguments, handler=_never_called, handler_path="")]
    )
    try:
        reference = with_ecma_regex(validators.validator_for(schema, Draft202012Validator))(schema)
    except Exception:
        reference = None
    return dispatcher, reference, cases(schema)


def reference_accepts(reference: Any, instance: Any) -> bool:
    if reference is None:
        return False
    try:
        accepted = bool(reference.is_valid(instance))
    except Exception:
        return False  # the schema cannot judge it: the server must refuse
    # The ECMA-262 reference shares the runtime's regex keywords; the literal one shares
    # nothing but regress's answers on this instance's strings: they must agree too.
    assert accepted == literal_verdict(reference.schema, instance), (reference.schema, instance)
    return accepted


@pytest.mark.parametrize("schema", tool_schemas())
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_server_verdict_equals_reference(schema: dict[str, Any], data: st.DataObject) -> None:
    dispatcher, reference, strategy = _judges(json.dumps(schema, sort_keys=True))
    case = data.draw(strategy)
    expected = reference_accepts(reference, case.instance)
    admitted = dispatcher.admit("t", case.instance)
    if isinstance(admitted, CallToolResult):
        assert admitted.is_error
    accepted = not isinstance(admitted, CallToolResult)
    tally.JUDGED[case.category, "accepted" if accepted else "refused"] += 1
    if accepted != expected:
        tally.DISAGREEMENTS.append(f"{case.category}: {case.instance!r} against {schema!r}")
    assert accepted == expected, (case, admitted)


def pattern_schemas() -> list[Any]:
    """Each known pattern as a `pattern` and as a `patternProperties` key."""
    found = []
    for pattern in [*corpus_patterns(), *REALISTIC]:
        string = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
        keys = {"type": "object", "patternProperties": {pattern: {"type": "integer"}}}
        found.append(pytest.param(string, lambda text: {"s": text}, id=f"pattern:{pattern}"))
        keyed = {**keys, "additionalProperties": False}
        found.append(pytest.param(keyed, lambda text: {text: 1}, id=f"key:{pattern}"))
    return found


@pytest.mark.parametrize(("schema", "instance_of"), pattern_schemas())
@settings(max_examples=max(EXAMPLES, 20), deadline=None, database=None)
@given(text=texts())
def test_server_verdict_on_tricky_strings_equals_reference(
    schema: dict[str, Any], instance_of: Any, text: str
) -> None:
    """Whitespace, line terminators, other scripts' digits, astral characters: RE2 (or the
    regex child process) must judge exactly as regress does."""
    dispatcher, reference, _ = _judges(json.dumps(schema, sort_keys=True))
    instance = instance_of(text)
    expected = reference_accepts(reference, instance)
    accepted = not isinstance(dispatcher.admit("t", instance), CallToolResult)
    assert accepted == expected, (schema, instance)


def _server_accepts(schema: dict[str, Any], instance: Any) -> bool:
    return SchemaCheck(schema).problems(instance) == []


@settings(max_examples=max(EXAMPLES, 60) * 5, deadline=None, database=None)
@given(schema=object_schemas(), instance=objects())
def test_unevaluated_properties_see_pattern_properties_as_ecma_262(
    schema: dict[str, Any], instance: dict[str, Any]
) -> None:
    """`patternProperties` (and `propertyNames`' patterns) nested in applicators and `$ref`s
    decide which keys `unevaluatedProperties` sees, with ECMA-262's regexes."""
    assert _server_accepts(schema, instance) == literal_verdict(schema, instance), (
        schema,
        instance,
    )


@settings(max_examples=max(EXAMPLES, 60) * 2, deadline=None, database=None)
@given(schema=object_schemas(draft_2019=True), instance=objects())
def test_draft_2019_unevaluated_properties_see_pattern_properties_as_ecma_262(
    schema: dict[str, Any], instance: dict[str, Any]
) -> None:
    assert _server_accepts(schema, instance) == literal_verdict(schema, instance), (
        schema,
        instance,
    )


@settings(max_examples=max(EXAMPLES, 60) * 5, deadline=None, database=None)
@given(schema=array_schemas(), instance=arrays())
def test_unevaluated_items_see_patterns_as_ecma_262(schema: dict[str, Any], instance: Any) -> None:
    """`prefixItems`, `items` and `contains` holding patterns, nested in applicators, decide
    which items `unevaluatedItems` sees, with ECMA-262's regexes."""
    assert _server_accepts(schema, instance) == literal_verdict(schema, instance), (
        schema,
        instance,
    )
