"""Instances judged by the verdict tests, by category and verdict, printed after the run."""

from __future__ import annotations

from collections import Counter

JUDGED: Counter[tuple[str, str]] = Counter()
DISAGREEMENTS: list[str] = []


def summary() -> list[str]:
    categories = sorted({category for category, _ in JUDGED})
    lines = [f"{'category':<28}{'accepted':>10}{'refused':>10}"]
    for category in categories:
        accepted, refused = JUDGED[category, "accepted"], JUDGED[category, "refused"]
        lines.append(f"{category:<28}{accepted:>10}{refused:>10}")
    lines.append(f"instances judged: {sum(JUDGED.values())}; disagreements: {len(DISAGREEMENTS)}")
    return lines + DISAGREEMENTS[:20]
