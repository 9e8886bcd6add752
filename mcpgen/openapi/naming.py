"""Tool names from operationIds: snake_case, at most 64 characters, unique, and stable.

Stable means a name depends only on the operation's own operationId (or method and path),
never on its position in the document, so regenerating after the spec changed keeps every
other tool's name. A name longer than 64 characters keeps its first words and ends in a
short digest of the whole operationId, so two long ids that share a prefix stay apart.
"""

from __future__ import annotations

import hashlib
import re

from mcpgen.core import names

MAX_LENGTH = 64
_DIGEST_LENGTH = 6
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NOT_WORD = re.compile(r"[^A-Za-z0-9]+")


def snake_case(text: str) -> str:
    """`actions/list-workflow-runs-for-repo` → `actions_list_workflow_runs_for_repo`;
    `getUserByID` → `get_user_by_id`."""
    spaced = _CAMEL.sub("_", text)
    return "_".join(w.lower() for w in _NOT_WORD.split(spaced) if w)


def digest(text: str) -> str:
    """A short, stable digest of `text`."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:_DIGEST_LENGTH]


def shorten(name: str, seed: str, limit: int = MAX_LENGTH) -> str:
    """`name` if it fits, else its first words and `_<digest of seed>` within `limit`."""
    if len(name) <= limit:
        return name
    room = limit - _DIGEST_LENGTH - 1
    head = name[:room]
    if "_" in head[room // 2 :]:
        head = head[: head.rindex("_")]  # end on a whole word when one is near the cut
    return f"{head.rstrip('_')}_{digest(seed)}"


def base_name(operation_id: str | None, method: str, path: str) -> str:
    """The name an operation gets when nothing else claims it."""
    if operation_id:
        seed = operation_id
        raw = snake_case(operation_id)
    else:
        seed = f"{method.upper()} {path}"
        raw = snake_case(f"{method} {path.replace('{', '').replace('}', '')}")
    raw = raw or "operation"
    if raw[0].isdigit():
        raw = f"op_{raw}"
    return shorten(raw, seed)


def unique_names(operations: list[tuple[str, str]]) -> dict[str, str]:
    """(key, base name) pairs → key → a name no other operation has.

    Names are compared as the generated code uses them (`names.class_name` of the Python
    identifier), so `list_v2` and `list_v_2` count as the same. In a clash the key that sorts
    first keeps the plain name and the others get a digest of their own key appended.
    """
    taken: dict[str, str] = {}
    result: dict[str, str] = {}
    for key, name in sorted(operations, key=lambda item: (item[1], item[0])):
        candidate = name
        if _identity(candidate) in taken:
            candidate = shorten(f"{name}_{digest(key)}", key)
            if len(candidate) > MAX_LENGTH or _identity(candidate) in taken:
                candidate = f"{name[: MAX_LENGTH - 2 * _DIGEST_LENGTH - 2]}_{digest(key)}"
        taken[_identity(candidate)] = key
        result[key] = candidate
    return result


def _identity(name: str) -> str:
    return names.class_name(names.python_identifier(name)).lower()
