"""Which part of the fast-path corpus a run judges: a seeded sample, or all of it on request.

`MCPGEN_FULL_DIFFERENTIAL=1` judges the whole fast-path corpus; so does a full sweep of the
suite (`pytest --full`, `MCPGEN_FULL=1`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

from tests.support import sweep

FULL_ENV = "MCPGEN_FULL_DIFFERENTIAL"  # "1": judge the whole corpus

T = TypeVar("T")


def drawn(corpus: Sequence[T], sample: int) -> list[T]:
    """`sample` items of `corpus` (`sweep`'s seeded draw), or all of them in a full run."""
    if os.environ.get(FULL_ENV) == "1":
        return list(corpus)
    return sweep.drawn(corpus, sample)
