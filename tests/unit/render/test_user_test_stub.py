"""The user test stub runs the handler on every manifest example and checks the result."""

from __future__ import annotations

import ast
from typing import Any

from mcpgen.manifest.model import build_manifest
from mcpgen.render.plan import render_plan

OBJECT = {"type": "object", "properties": {"q": {"type": "string"}}}


def stub(tool: dict[str, Any]) -> str:
    manifest = build_manifest({"name": "demo", "version": "1.0.0", "tools": [tool]})
    planned = render_plan(manifest).get(f"tests/test_{tool['name']}.py")
    assert planned is not None and planned.owner == "user"
    ast.parse(planned.content)
    return planned.content


def arguments_of(source: str) -> list[tuple[Any, str]]:
    """(arguments, id) of each `pytest.param` in ARGUMENTS."""
    module = ast.parse(source)
    value = next(
        n.value
        for n in module.body
        if isinstance(n, ast.AnnAssign) and ast.unparse(n.target) == "ARGUMENTS"
    )
    assert isinstance(value, ast.List)
    found = []
    for call in value.elts:
        assert isinstance(call, ast.Call)
        found.append((ast.literal_eval(call.args[0]), ast.literal_eval(call.keywords[0].value)))
    return found


def test_every_example_is_a_case_and_the_output_model_checks_the_result() -> None:
    source = stub(
        {
            "name": "search",
            "input_schema": {**OBJECT, "required": ["q"]},
            "output_schema": {"type": "object", "properties": {"n": {"type": "integer"}}},
            "examples": [{"arguments": {"q": "a"}}, {"arguments": {"q": "b"}}],
        }
    )
    assert arguments_of(source) == [({"q": "a"}, "example-0"), ({"q": "b"}, "example-1")]
    assert "SearchOutput.model_validate(result, from_attributes=True)" in source
    assert "is not None" not in source


def test_no_example_and_no_required_argument_calls_it_without_arguments() -> None:
    source = stub({"name": "ping", "input_schema": OBJECT})
    assert arguments_of(source) == [({}, "no-arguments")]
    assert 'assert result, "the handler answered nothing"' in source


def test_no_example_and_required_arguments_leaves_the_cases_to_the_user() -> None:
    source = stub({"name": "find", "input_schema": {**OBJECT, "required": ["q"]}})
    assert arguments_of(source) == []
    assert "needs arguments: add some here" in source


def test_one_conftest_holds_the_anyio_backend() -> None:
    manifest = build_manifest(
        {"name": "demo", "version": "1.0.0", "tools": [{"name": "a", "input_schema": OBJECT}]}
    )
    plan = render_plan(manifest)
    conftest = plan.get("tests/conftest.py")
    assert conftest is not None and conftest.owner == "user"
    assert "def anyio_backend" in conftest.content
    others = [f for f in plan.files if f.path.startswith("tests/") and f is not conftest]
    assert others and not [f.path for f in others if "anyio_backend" in f.content]
