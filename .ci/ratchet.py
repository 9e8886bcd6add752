#!/usr/bin/env python3
"""Ratchets: rules mcpgen's code does not meet everywhere yet, which may only get better.

Docstrings on public modules, classes, functions and methods (ruff `D100`-`D104`) and a
complexity of at most 15 per function (`C901`) are counted per file and rule. A count above
the one recorded in `.ci/ratchet.json` fails (new code meets the rule); a count below it is
reported, and `python .ci/ratchet.py --update` records the better figure, so the bar only
ever rises. A file that is renamed keeps no allowance: it starts at zero.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / ".ci" / "ratchet.json"
RULES = ["D100", "D101", "D102", "D103", "D104", "C901"]
MAX_COMPLEXITY = 15


def counts() -> dict[str, dict[str, int]]:
    """`{file: {rule: violations}}` for mcpgen's own code, as ruff reports them now."""
    command = [
        sys.executable, "-m", "ruff", "check", "mcpgen", "--no-cache", "--exit-zero",
        "--output-format", "json", "--select", ",".join(RULES),
        "--config", f"lint.mccabe.max-complexity={MAX_COMPLEXITY}",
    ]  # fmt: skip
    found = json.loads(subprocess.run(command, cwd=ROOT, capture_output=True, check=True).stdout)
    tally = Counter((Path(f["filename"]).relative_to(ROOT).as_posix(), f["code"]) for f in found)
    result: dict[str, dict[str, int]] = {}
    for (file, rule), count in sorted(tally.items()):
        result.setdefault(file, {})[rule] = count
    return result


def compare(
    now: dict[str, dict[str, int]], allowed: dict[str, dict[str, int]]
) -> tuple[list[str], list[str]]:
    """(what got worse, what got better), one line each."""
    worse, better = [], []
    for file in sorted(set(now) | set(allowed)):
        for rule in RULES:
            have, may = now.get(file, {}).get(rule, 0), allowed.get(file, {}).get(rule, 0)
            if have > may:
                worse.append(f"{file}: {rule} {have} > {may} allowed")
            elif have < may:
                better.append(f"{file}: {rule} {have} < {may} allowed")
    return worse, better


def main(argv: list[str]) -> int:
    now = counts()
    if "--update" in argv:
        BASELINE.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"ratchet: recorded {sum(sum(r.values()) for r in now.values())} allowances")
        return 0
    allowed = json.loads(BASELINE.read_text(encoding="utf-8"))
    worse, better = compare(now, allowed)
    for line in better:
        print(f"ratchet: better, run `python .ci/ratchet.py --update` to keep it: {line}")
    for line in worse:
        print(f"ratchet: worse: {line} (add the docstring, or split the function)")
    total = sum(sum(r.values()) for r in now.values())
    print(f"ratchet: {total} allowances left for {', '.join(RULES)}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
