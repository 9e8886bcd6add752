"""The SDK-compatibility contract: which releases it accepts, why the fast paths are off, and
that it says so once."""

from __future__ import annotations

import logging
import os
import sys

import pytest
from mcp.types import version as sdk_version

from mcpgen.runtime.core import sdk_contract
from mcpgen.runtime.core.sdk_contract import (
    SWITCH_ENV,
    VERIFIED_PROTOCOLS,
    Protocols,
    Releases,
    fast_paths,
)

pytestmark = pytest.mark.usefixtures("fresh_announcements")


@pytest.fixture
def fresh_announcements(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with nothing announced yet."""
    monkeypatch.setattr(sdk_contract, "_announced", set())


@pytest.mark.parametrize(
    ("version", "inside"),
    [
        ("2.3.0", True),
        ("2.3.17", True),
        ("2.3", True),
        ("2.4.0", False),
        ("2.4.0rc1", False),
        ("2.2.9", False),
        ("10.3.0", False),
        ("unknown", False),
    ],
)
def test_a_release_range_holds_what_it_says(version: str, inside: bool) -> None:
    releases = Releases(lowest=(2, 3), below=(2, 4))
    assert (version in releases) is inside
    assert str(releases) == ">=2.3,<2.4"


def test_under_the_pinned_sdk_the_fast_paths_are_on() -> None:
    assert fast_paths(opening=True, environ={}).on


def test_the_switch_turns_them_off_and_says_so_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            verdict = fast_paths(opening=True, environ={SWITCH_ENV: "0"})
        fast_paths(environ={SWITCH_ENV: "0"})
    assert not verdict.on
    assert verdict.off == f"{SWITCH_ENV}=0"
    assert [r.getMessage() for r in caplog.records] == [
        f"the opening answers and fast paths are off, the SDK answers every request: {SWITCH_ENV}=0"
    ]
    assert fast_paths(environ={SWITCH_ENV: "1"}).on


def test_a_release_they_were_not_proven_with_turns_them_off(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sdk_contract, "installed_sdk", lambda: "2.9.1")
    with caplog.at_level(logging.WARNING):
        verdict = fast_paths(environ={})
    assert verdict.off == "mcp 2.9.1 is not a release they were proven with (>=2.3,<2.4)"
    assert len(caplog.records) == 1


def test_an_unreadable_release_turns_them_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sdk_contract, "installed_sdk", lambda: None)
    assert fast_paths(environ={}).off == "the installed mcp release cannot be read"


def test_other_protocol_versions_turn_them_off(monkeypatch: pytest.MonkeyPatch) -> None:
    other = Protocols(("2025-11-25", "2026-01-01"), ("2026-07-28",))
    monkeypatch.setattr(sdk_contract, "sdk_protocols", lambda: other)
    off = fast_paths(environ={}).off
    assert off is not None
    assert "2026-01-01" in off and str(VERIFIED_PROTOCOLS) in off


def test_the_opening_needs_a_posix_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(os, "name", "nt")
        opening, others = fast_paths(opening=True, environ={}), fast_paths(environ={})
    assert opening.off is not None and "POSIX" in opening.off
    assert others.on


def test_the_sdks_versions_are_read_without_importing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """From its registry file run on its own: the versions `mcp.types.version` holds."""
    monkeypatch.delitem(sys.modules, "mcp_types.version")
    sdk_contract.sdk_protocols.cache_clear()
    try:
        read = sdk_contract.sdk_protocols()
    finally:
        sdk_contract.sdk_protocols.cache_clear()
    assert read == Protocols(
        tuple(sdk_version.HANDSHAKE_PROTOCOL_VERSIONS), tuple(sdk_version.MODERN_PROTOCOL_VERSIONS)
    )
    assert read.latest_handshake == sdk_version.LATEST_HANDSHAKE_VERSION
