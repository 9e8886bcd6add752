"""Which part of a corpus a run judges: a seeded sample, or all of it on request."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import TypeVar

FULL_ENV = "MCPGEN_FULL_DIFFERENTIAL"  # "1": judge the whole corpus
SEED = 21  # fixed: a run judges what the run before it judged

T = TypeVar("T")


def drawn(corpus: Sequence[T], sample: int) -> list[T]:
    """`sample` items of `corpus` drawn with `SEED`, in corpus order; all of them when the
    environment sets `FULL_ENV` to 1."""
    if os.environ.get(FULL_ENV) == "1" or sample >= len(corpus):
        return list(corpus)
    chosen = set(random.Random(SEED).sample(range(len(corpus)), sample))
    return [item for index, item in enumerate(corpus) if index in chosen]
