"""Tests of the `get_forecast` handler. This file is yours: mcpgen created it once."""

from __future__ import annotations

import pytest

from weather._generated.models import GetForecastInput
from weather.handlers.get_forecast import get_forecast


@pytest.mark.anyio
async def test_forecast_has_the_requested_days() -> None:
    result = await get_forecast(GetForecastInput(city="Paris", days=5))
    assert [d.day for d in result.days] == [1, 2, 3, 4, 5]
    assert all(d.low <= d.high for d in result.days)


@pytest.mark.anyio
async def test_forecast_is_deterministic_and_converts_units() -> None:
    metric = await get_forecast(GetForecastInput(city="Oslo", units="metric"))
    imperial = await get_forecast(GetForecastInput(city="Oslo", units="imperial"))
    assert metric == await get_forecast(GetForecastInput(city="Oslo", units="metric"))
    for m, i in zip(metric.days, imperial.days, strict=True):
        assert i.high == pytest.approx(m.high * 9 / 5 + 32, abs=0.11)
