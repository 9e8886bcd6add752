"""Handler of the `get_forecast` tool: a deterministic forecast, so the example runs offline.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

import hashlib

from weather._generated.models import (
    GetForecastInput,
    GetForecastOutput,
    GetForecastOutputDay,
)

SUMMARIES = ("Sunny", "Partly cloudy", "Cloudy", "Light rain", "Showers", "Windy", "Clear")


def _seed(city: str, day: int) -> int:
    # A stable number per (city, day): the same question always gets the same answer.
    digest = hashlib.sha256(f"{city.strip().lower()}/{day}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _to_units(celsius: float, units: str) -> float:
    return round(celsius * 9 / 5 + 32, 1) if units == "imperial" else round(celsius, 1)


async def get_forecast(args: GetForecastInput) -> GetForecastOutput:
    """Forecast `args.days` days for `args.city`."""
    units = args.units
    days = []
    for day in range(1, args.days + 1):
        seed = _seed(args.city, day)
        low_c = 2 + seed % 15
        days.append(
            GetForecastOutputDay(
                day=day,
                summary=SUMMARIES[seed % len(SUMMARIES)],
                high=_to_units(low_c + 4 + seed % 9, units),
                low=_to_units(low_c, units),
                precipitation_chance=seed % 101,
            )
        )
    return GetForecastOutput(city=args.city, units=units, days=days)
