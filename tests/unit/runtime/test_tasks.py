"""The tasks a server keeps (`dispatch.tasks`): their statuses, their questions, their owners,
how long they are kept; and which tools may run as tasks (`core.task_support`)."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgen.runtime.core.task_support import runs_tasks, task_support
from mcpgen.runtime.dispatch.tasks import TaskStore


@pytest.mark.parametrize(
    ("definition", "support"),
    [
        ({"name": "t"}, "forbidden"),
        ({"name": "t", "execution": {}}, "forbidden"),
        ({"name": "t", "execution": {"taskSupport": "forbidden"}}, "forbidden"),
        ({"name": "t", "execution": {"taskSupport": "optional"}}, "optional"),
        ({"name": "t", "execution": {"taskSupport": "required"}}, "required"),
        ({"name": "t", "execution": "optional"}, "forbidden"),
    ],
)
def test_task_support_reads_the_published_definition(
    definition: dict[str, Any], support: str
) -> None:
    assert task_support(definition) == support
    assert runs_tasks([definition]) is (support != "forbidden")


def test_a_task_moves_to_a_terminal_status_once() -> None:
    store = TaskStore()
    task = store.new(owner=None)
    store.add(task)
    assert task.detailed()["status"] == "working" and "result" not in task.detailed()
    result = {"content": [{"type": "text", "text": "done"}], "isError": False}
    task.settle("completed", result=result)
    task.settle("cancelled")  # too late: a settled task stays as it is
    assert task.status == "completed"
    assert task.detailed()["result"] == result
    assert task.handshake_fields()["status"] == "completed"


def test_a_failed_task_carries_its_error_and_no_result() -> None:
    task = TaskStore().new(owner=None)
    task.settle("failed", error={"code": -32603, "message": "broke"})
    shown = task.detailed()
    assert shown["error"] == {"code": -32603, "message": "broke"} and "result" not in shown


def test_questions_wait_until_every_one_is_answered() -> None:
    task = TaskStore().new(owner=None)
    task.ask({"a": {"method": "elicitation/create"}, "b": {"method": "elicitation/create"}}, "s")
    assert task.detailed()["inputRequests"].keys() == {"a", "b"}
    assert task.answer({"a": {"action": "accept"}, "unknown": {}}) is False
    assert task.status == "input_required"
    assert task.detailed()["inputRequests"].keys() == {"b"}
    assert task.answer({"b": {"action": "decline"}}) is True
    assert task.detailed()["status"] == "working"
    assert task.answers == {"a": {"action": "accept"}, "b": {"action": "decline"}}
    assert task.request_state == "s"


def test_the_wire_fields_are_integers_in_milliseconds_and_never_the_old_names() -> None:
    fields = TaskStore().new(owner=None).fields()
    assert isinstance(fields["ttlMs"], int) and isinstance(fields["pollIntervalMs"], int)
    assert "ttl" not in fields and "pollInterval" not in fields and "requestState" not in fields
    assert fields["createdAt"].endswith("Z")


def test_a_task_answers_only_its_owner() -> None:
    store = TaskStore()
    task = store.new(owner="alice")
    store.add(task)
    assert store.get(task.task_id, "alice") is task
    assert store.get(task.task_id, "mallory") is None
    assert store.get(task.task_id, None) is None
    assert list(store.owned_by("alice")) == [task]


def test_settled_tasks_go_after_their_ttl_and_beyond_the_limit() -> None:
    store = TaskStore(limit=2)
    first, second, third = (store.new(owner=None) for _ in range(3))
    for task in (first, second, third):
        task.settle("completed", result={"content": []})
        store.add(task)
    assert len(store) == 3  # the limit is applied before each new task
    store.add(store.new(owner=None))
    assert store.get(first.task_id, None) is None  # the oldest settled one went
    second.ttl_ms = 0
    assert store.get(second.task_id, None) is None  # expired
    running = store.new(owner=None)
    running.ttl_ms = 0
    store.add(running)
    assert store.get(running.task_id, None) is running  # a running task is never dropped
