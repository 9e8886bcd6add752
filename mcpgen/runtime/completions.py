"""completion/complete: values for a prompt argument or a resource template variable."""

from __future__ import annotations

from collections.abc import Sequence

from mcp.types import CompleteResult, Completion

# The protocol caps one answer at 100 values.
MAX_VALUES = 100


def completed(candidates: Sequence[str], typed: str) -> CompleteResult:
    """The candidates that start with what the user typed, case-insensitively, in order."""
    prefix = typed.casefold()
    found = [c for c in candidates if c.casefold().startswith(prefix)]
    return CompleteResult(
        completion=Completion(
            values=found[:MAX_VALUES], total=len(found), has_more=len(found) > MAX_VALUES
        )
    )


def nothing() -> CompleteResult:
    return CompleteResult(completion=Completion(values=[], total=0, has_more=False))
