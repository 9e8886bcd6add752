"""Handler of the `test_input_required_result_multiple_inputs` tool: Asks the user, the client's model and the client's roots at once.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import CreateMessageResult, ElicitResult, ListRootsResult, TextContent

from everything._generated import Context, Elicit, ListRoots, Sample
from everything._generated.models import TestInputRequiredResultMultipleInputsInput

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


async def test_input_required_result_multiple_inputs(
    args: TestInputRequiredResultMultipleInputsInput, ctx: Context
) -> str:
    """Asks the user, the client's model and the client's roots at once."""
    answers = await ctx.ask(
        {
            "user_name": Elicit("What is your name?", NAME),
            "greeting": Sample("Generate a greeting", max_tokens=50),
            "client_roots": ListRoots(),
        }
    )
    person, greeting, roots = answers["user_name"], answers["greeting"], answers["client_roots"]
    assert isinstance(person, ElicitResult)
    assert isinstance(greeting, CreateMessageResult)
    assert isinstance(roots, ListRootsResult)
    name = (person.content or {}).get("name", "stranger")
    said = greeting.content.text if isinstance(greeting.content, TextContent) else "hello"
    return f"{said} {name}; roots: {', '.join(str(root.uri) for root in roots.roots)}"
