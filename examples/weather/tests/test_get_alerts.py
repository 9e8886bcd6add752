"""Tests of the `get_alerts` handler. This file is yours: mcpgen created it once."""

from __future__ import annotations

import pytest

from weather._generated.models import GetAlertsInput
from weather.handlers.get_alerts import get_alerts


@pytest.mark.anyio
async def test_alerts_filter_by_severity() -> None:
    text = await get_alerts(GetAlertsInput(state="TX", min_severity="severe"))
    assert "thunderstorm" in text
    assert "Heat advisory" not in text


@pytest.mark.anyio
async def test_no_alerts() -> None:
    assert await get_alerts(GetAlertsInput(state="VT")) == "No active alerts for VT."
