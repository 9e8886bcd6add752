"""Tests of the `notebooks.list` handler. This file is yours: mcpgen created it once and never
changes it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from notes_app._generated.models import NotebooksListInput, NotebooksListOutput
from notes_app.handlers.notebooks_list import notebooks_list as handler

# The examples of `notebooks.list` in mcpgen.yaml when this file was created; add your own.
ARGUMENTS: list[Any] = [
    pytest.param({}, id="example-0"),
]


@pytest.mark.anyio
@pytest.mark.parametrize("arguments", ARGUMENTS)
async def test_notebooks_list(arguments: dict[str, Any]) -> None:
    args = NotebooksListInput.model_validate(arguments)
    try:
        outcome = handler(args)
        result = await outcome if inspect.isawaitable(outcome) else outcome
    except NotImplementedError:
        pytest.skip("notebooks_list is not implemented yet")
    # The server checks a structured result against the output schema: so does this test.
    NotebooksListOutput.model_validate(result, from_attributes=True)
