"""Shared test fixtures. This file is yours: mcpgen created it once and never changes it."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    """Run the async tests (yours and tests/test_contract.py) on asyncio only."""
    return "asyncio"
