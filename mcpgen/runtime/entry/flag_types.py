"""Argument types of the server's command line: whole numbers and seconds within bounds."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

# The largest values a flag takes: beyond them a number is a typo, not a setting.
MAX_SECONDS = 365 * 24 * 3600.0
MAX_BYTES = 1 << 40
MAX_COUNT = 1_000_000


def whole(minimum: int, maximum: int = MAX_COUNT) -> Callable[[str], int]:
    """An argparse `type`: a whole number from `minimum` to `maximum`."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if text.strip().isascii() else None
        except ValueError:
            value = None
        if value is None:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"{value} is not between {minimum} and {maximum}")
        return value

    return parse


def seconds(*, zero: bool = False) -> Callable[[str], float]:
    """An argparse `type`: a finite number of seconds, above 0 (or 0 too, when `zero`
    means something), up to `MAX_SECONDS`."""

    def parse(text: str) -> float:
        try:
            value = float(text) if text.strip().isascii() else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of seconds")
        if value < 0 or (value == 0 and not zero) or value > MAX_SECONDS:
            lowest = "0" if zero else "above 0"
            raise argparse.ArgumentTypeError(f"{value:g} is not from {lowest} to {MAX_SECONDS:.0f}")
        return value

    return parse
