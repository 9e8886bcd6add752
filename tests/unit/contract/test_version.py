"""The version a contract change calls for, and whether a version reaches it."""

from __future__ import annotations

import pytest

from mcpgen.contract.version import reaches, release_of, suggested_version


@pytest.mark.parametrize(
    ("old", "breaking", "changed", "expected"),
    [
        ("1.2.3", True, True, "2.0.0"),
        ("1.2.3", False, True, "1.3.0"),
        ("1.2.3", False, False, "1.2.3"),
        ("0.4.2", True, True, "0.5.0"),
        ("0.4.2", False, True, "0.4.3"),
        ("0.4.2", False, False, "0.4.2"),
        ("2.0.0-rc1", True, True, "3.0.0"),
    ],
)
def test_suggested_version(old: str, breaking: bool, changed: bool, expected: str) -> None:
    assert suggested_version(old, breaking=breaking, changed=changed) == expected


def test_reaches() -> None:
    assert reaches("2.0.0", "2.0.0")
    assert reaches("2.1.0", "2.0.0")
    assert not reaches("1.9.9", "2.0.0")
    assert not reaches("latest", "2.0.0")


def test_release_of_a_short_version() -> None:
    assert release_of("3") == (3, 0, 0)
    assert release_of("x") is None
