"""How much of a long sweep a run covers: a seeded sample by default, all of it on request.

Differential judges over the corpus, random kill points, hypothesis searches: CI runs a fixed
sample of each (the same every run, so a failure reproduces), and `pytest --full` (or
`MCPGEN_FULL=1` in the environment, which the processes a test starts inherit) runs every
case, every kill point and the full hypothesis budget with fresh randomness.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import TypeVar

FULL_ENV = "MCPGEN_FULL"  # "1": the whole sweep
SEED = 21  # fixed: a run samples what the run before it sampled

T = TypeVar("T")


def full_run() -> bool:
    """True when this run covers every case (`pytest --full` or `MCPGEN_FULL=1`)."""
    return os.environ.get(FULL_ENV) == "1"


def drawn(corpus: Sequence[T], sample: int, seed: int = SEED) -> list[T]:
    """`sample` items of `corpus` drawn with `seed`, in corpus order; all of them in a full run."""
    if full_run() or sample >= len(corpus):
        return list(corpus)
    chosen = set(random.Random(seed).sample(range(len(corpus)), sample))
    return [item for index, item in enumerate(corpus) if index in chosen]


def rounds(sampled: int, full: int) -> int:
    """How many times a randomised check repeats: `sampled` in CI, `full` in a full run."""
    return full if full_run() else sampled


def examples(sampled: int, full: int) -> int:
    """A hypothesis test's `max_examples`: `sampled` in CI, `full` in a full run."""
    return full if full_run() else sampled
