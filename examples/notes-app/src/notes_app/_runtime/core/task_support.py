# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Which tools may run as MCP tasks (`execution.taskSupport`), known from their definitions.

Standard library only: the stdio opening declares tasks before the SDK is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
# The 2025-11-25 `tasks` server capability: tools/call as tasks, listed and cancelled.
HANDSHAKE_CAPABILITY: dict[str, Any] = {
    "list": {},
    "cancel": {},
    "requests": {"tools": {"call": {}}},
}


def task_support(definition: Mapping[str, Any]) -> str:
    """A tools/list entry's `execution.taskSupport` ("forbidden" when absent)."""
    execution = definition.get("execution")
    value = execution.get("taskSupport") if isinstance(execution, Mapping) else None
    return value if value in ("optional", "required") else "forbidden"


def runs_tasks(definitions: list[Any]) -> bool:
    """Whether any tool may run as a task: the server then declares tasks."""
    return any(isinstance(d, Mapping) and task_support(d) != "forbidden" for d in definitions)
