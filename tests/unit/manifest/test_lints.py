"""The lints of `mcpgen validate`: what makes tools hard for a model to use, located."""

from __future__ import annotations

import pytest

from mcpgen.manifest.lints import TOKEN_BUDGET, estimated_tokens, lint_findings
from mcpgen.manifest.load import load_yaml
from mcpgen.manifest.validate import to_diagnostics

HEAD = "name: demo\nversion: 0.1.0\ntools:\n"


def lints(tools: str) -> list[str]:
    loaded = load_yaml(HEAD + tools, "mcpgen.yaml")
    found = to_diagnostics(lint_findings(loaded.data), loaded.source_map, "mcpgen.yaml")
    return [str(d) for d in found]


def test_a_described_tool_has_no_lint() -> None:
    tools = """\
  - name: search
    description: Find notes.
    input_schema:
      type: object
      properties:
        query: {type: string, description: Words to look for}
        mode: {type: string, enum: [fast, full], description: "fast: titles; full: bodies"}
"""
    assert lints(tools) == []


@pytest.mark.parametrize(
    ("argument", "expected"),
    [
        (
            "query: {type: string}",
            "mcpgen.yaml:9:9: tools[0].input_schema.properties.query: warning: argument `query` "
            "has no description: the model guesses what to pass",
        ),
        (
            "mode: {type: string, enum: [fast, full]}",
            "mcpgen.yaml:9:9: tools[0].input_schema.properties.mode: warning: the values of "
            "`mode` have no meaning given: describe what each one does (a description on the "
            "argument, or oneOf with a const and a description each)",
        ),
        (
            "'the query': {type: string, description: Words}",
            'mcpgen.yaml:9:9: tools[0].input_schema.properties["the query"]: warning: argument '
            "name `the query` does not match ^[a-zA-Z0-9_.-]{1,64}$: the Anthropic API refuses "
            "the tool, so hosts on Claude drop it",
        ),
        (
            "filter: {type: object, description: F, properties: {tag: {type: string}}}",
            "mcpgen.yaml:9:61: tools[0].input_schema.properties.filter.properties.tag: warning: "
            "argument `filter.tag` has no description: the model guesses what to pass",
        ),
    ],
)
def test_each_argument_lint_is_located(argument: str, expected: str) -> None:
    tools = f"""\
  - name: search
    description: Find notes.
    input_schema:
      type: object
      properties:
        {argument}
"""
    assert lints(tools) == [expected]


def test_a_ref_is_described_where_it_points() -> None:
    tools = """\
  - name: search
    description: Find notes.
    input_schema:
      type: object
      properties:
        where: {$ref: '#/$defs/place'}
      $defs:
        place: {type: string, description: A place}
"""
    assert lints(tools) == []


def test_a_long_description() -> None:
    tools = f"  - name: search\n    description: {'x' * 1025}\n    input_schema: {{type: object}}\n"
    (line,) = lints(tools)
    assert line.startswith("mcpgen.yaml:5:18: tools[0].description: warning: the description")
    assert "1025 characters; OpenAI's API keeps 1024" in line


def test_a_tools_list_over_budget() -> None:
    description = "d" * 900
    count = TOKEN_BUDGET * 4 // 900 + 1
    tools = "".join(
        f"  - {{name: t{i}, description: {description}, input_schema: {{type: object}}}}\n"
        for i in range(count)
    )
    found = lints(tools)
    assert len(found) == 1
    assert found[0].startswith("mcpgen.yaml:3:1: tools: warning: tools/list is about ")
    assert "over a budget of 10,000" in found[0]


def test_estimated_tokens_count_the_published_keys_only() -> None:
    plain = [{"name": "t", "input_schema": {"type": "object"}}]
    assert estimated_tokens(plain) == estimated_tokens([{**plain[0], "timeout": 3, "scopes": []}])
