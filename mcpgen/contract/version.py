"""The version a contract change calls for, by semantic versioning's rules.

Below 1.0 the public contract is still settling: a breaking change bumps the minor number and
a compatible one the patch number, as Cargo and npm read `0.x` versions.
"""

from __future__ import annotations

import re

_RELEASE = re.compile(r"^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")

Release = tuple[int, int, int]


def release_of(version: str) -> Release | None:
    """`1.4.2-rc1` → (1, 4, 2); None when the text does not start with a number."""
    found = _RELEASE.match(version)
    if found is None:
        return None
    major, minor, patch = (int(part or 0) for part in found.groups())
    return major, minor, patch


def suggested_version(old: str, *, breaking: bool, changed: bool) -> str:
    """The version after `old` for a breaking change, a compatible one, or none (`old`)."""
    release = release_of(old)
    if not changed or release is None:
        return old
    major, minor, patch = release
    if breaking:
        return f"{major + 1}.0.0" if major else f"0.{minor + 1}.0"
    return f"{major}.{minor + 1}.0" if major else f"0.{minor}.{patch + 1}"


def reaches(version: str, target: str) -> bool:
    """Whether `version` is at least `target` (pre-release tags aside)."""
    have, need = release_of(version), release_of(target)
    return have is not None and need is not None and have >= need
