# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Tasks: tool calls that go on after their request is answered, polled by id for their result.

A tool whose manifest entry says `execution: {taskSupport: optional | required}` may run as
a task (see `task_calls` for when it does, and the wire of both protocol eras). This module
keeps the tasks themselves: their status, their result or error once settled, the questions
they wait on. Tasks live in the server process, not in a connection: a client that drops its
connection (or a stateless HTTP client, whose every request is its own) asks later, from any
session, with the task's id; the id is long and random, and a task started by an
authenticated caller answers that caller only.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})
# How long a task is kept from its creation, and how often a client is told to poll it.
TASK_TTL_MS = 60 * 60 * 1000
POLL_INTERVAL_MS = 500
# Settled tasks beyond this many are dropped, oldest first, before their TTL: a client that
# starts tasks and never reads them must not grow the server without bound.
MAX_TASKS = 10_000


def _now() -> str:
    """An ISO 8601 timestamp, as tasks carry them."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Task:
    """One task: what the client is told of it, and what its job left."""

    task_id: str
    owner: str | None  # the authenticated caller that started it; None without auth
    ttl_ms: int = TASK_TTL_MS
    status: TaskStatus = "working"
    status_message: str | None = None
    created_at: str = field(default_factory=_now)
    last_updated_at: str = ""
    created: float = field(default_factory=time.monotonic)
    result: dict[str, Any] | None = None  # the tool result, as sent (completed, cancelled)
    error: dict[str, Any] | None = None  # the JSON-RPC error (failed)
    # Questions waiting for the client (input_required): key → the request, as sent.
    input_requests: dict[str, Any] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)  # this round's answers so far
    request_state: str | None = None  # the round's state, kept on the server
    job: asyncio.Task[Any] | None = None
    told: bool = False  # the client was answered with this task (it is in the store)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.last_updated_at = self.last_updated_at or self.created_at

    @property
    def terminal(self) -> bool:
        """True once settled (completed, failed or cancelled): the task changes no more."""
        return self.status in TERMINAL

    def settle(
        self,
        status: TaskStatus,
        *,
        result: dict[str, Any] | None = None,
        error: dict[str, Any] | None = None,
        message: str | None = None,
    ) -> None:
        """Move to `status` (once terminal, a task stays as it is)."""
        if self.terminal:
            return
        self.status, self.result, self.error = status, result, error
        self.status_message = message
        if status != "input_required":
            self.input_requests = {}
        self.last_updated_at = _now()
        self.changed.set()
        self.changed = asyncio.Event()

    def ask(self, requests: Mapping[str, Any], state: str | None) -> None:
        """The job waits on these questions until `answer` has them all."""
        self.input_requests, self.answers, self.request_state = dict(requests), {}, state
        self.settle("input_required")

    def answer(self, responses: Mapping[str, Any]) -> bool:
        """Take the answers to pending questions (others are ignored); True once none is
        pending, when the job goes on with them."""
        if self.status != "input_required":
            return False
        for key, response in responses.items():
            if key in self.input_requests:
                self.answers[key] = response
                del self.input_requests[key]
        if self.input_requests:
            self.last_updated_at = _now()
            return False
        self.settle("working")
        return True

    def fields(self) -> dict[str, Any]:
        """The task's own fields on the 2026-07-28 wire (ttlMs, pollIntervalMs)."""
        found: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.last_updated_at,
            "ttlMs": self.ttl_ms,
            "pollIntervalMs": POLL_INTERVAL_MS,
        }
        if self.status_message is not None:
            found["statusMessage"] = self.status_message
        return found

    def detailed(self) -> dict[str, Any]:
        """`tasks/get` on the 2026-07-28 wire: the fields, and the result, error or questions."""
        found = self.fields()
        if self.status == "input_required":
            found["inputRequests"] = dict(self.input_requests)
        elif self.status == "failed" and self.error is not None:
            found["error"] = self.error
        elif self.result is not None:
            found["result"] = self.result
        return found

    def handshake_fields(self) -> dict[str, Any]:
        """The task on the 2025-11-25 wire (ttl, pollInterval)."""
        found: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.last_updated_at,
            "ttl": self.ttl_ms,
            "pollInterval": POLL_INTERVAL_MS,
        }
        if self.status_message is not None:
            found["statusMessage"] = self.status_message
        return found

    def expired(self, now: float) -> bool:
        """True for a settled task older than its TTL at `now` (monotonic seconds): the store
        forgets it. A task still running never expires."""
        return self.terminal and now - self.created > self.ttl_ms / 1000


class TaskStore:
    """The server's tasks by id, each kept for its TTL once settled."""

    def __init__(self, limit: int = MAX_TASKS) -> None:
        self._tasks: dict[str, Task] = {}
        self._limit = limit

    def __len__(self) -> int:
        return len(self._tasks)

    def new(self, owner: str | None) -> Task:
        """A task not yet stored: it is told to the client only once `add` has it."""
        return Task(task_id=secrets.token_urlsafe(24), owner=owner)

    def add(self, task: Task) -> None:
        """Store `task`, after forgetting the expired ones (and the oldest settled ones beyond
        the store's limit)."""
        self._forget_expired()
        self._tasks[task.task_id] = task

    def get(self, task_id: str, owner: str | None) -> Task | None:
        """The task, if it exists, has not expired, and belongs to `owner`."""
        self._forget_expired()
        task = self._tasks.get(task_id)
        if task is None or task.owner != owner:
            return None
        return task

    def owned_by(self, owner: str | None) -> Iterator[Task]:
        """The unexpired tasks `owner` started, oldest first (for tasks/list)."""
        self._forget_expired()
        return (t for t in list(self._tasks.values()) if t.owner == owner)

    def _forget_expired(self) -> None:
        now = time.monotonic()
        for task_id in [i for i, t in self._tasks.items() if t.expired(now)]:
            del self._tasks[task_id]
        excess = len(self._tasks) - self._limit
        if excess > 0:
            settled = [i for i, t in self._tasks.items() if t.terminal][:excess]
            for task_id in settled:
                del self._tasks[task_id]
