"""The weather tools' deterministic data, shared by the hand-written reference servers.

Copied from the generated project's `src/weather/handlers/*.py`, so every server answers the
same thing to the same call (the benchmark checks it before timing).
"""

import hashlib
from typing import Any

SUMMARIES = ("Sunny", "Partly cloudy", "Cloudy", "Light rain", "Showers", "Windy", "Clear")
SEVERITIES = ("minor", "moderate", "severe", "extreme")
ALERTS = {
    "CA": [("moderate", "Wind advisory for the coastal hills until 18:00.")],
    "TX": [
        ("severe", "Severe thunderstorm warning for Travis County until 21:00."),
        ("minor", "Heat advisory in effect through Friday."),
    ],
    "FL": [("extreme", "Hurricane warning for the Keys.")],
}
INSTRUCTIONS = (
    "Use get_forecast for a city's forecast over the next days and get_alerts for active "
    "weather alerts in a US state. Temperatures follow the requested units."
)


def _seed(city: str, day: int) -> int:
    digest = hashlib.sha256(f"{city.strip().lower()}/{day}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _to_units(celsius: float, units: str) -> float:
    return round(celsius * 9 / 5 + 32, 1) if units == "imperial" else round(celsius, 1)


def forecast_days(city: str, days: int, units: str) -> list[dict[str, Any]]:
    out = []
    for day in range(1, days + 1):
        seed = _seed(city, day)
        low_c = 2 + seed % 15
        out.append(
            {
                "day": day,
                "summary": SUMMARIES[seed % len(SUMMARIES)],
                "high": float(_to_units(low_c + 4 + seed % 9, units)),
                "low": float(_to_units(low_c, units)),
                "precipitation_chance": seed % 101,
            }
        )
    return out


def alerts_text(state: str, min_severity: str) -> str:
    threshold = SEVERITIES.index(min_severity)
    alerts = [
        f"[{severity}] {text}"
        for severity, text in ALERTS.get(state, [])
        if SEVERITIES.index(severity) >= threshold
    ]
    return "\n".join(alerts) if alerts else f"No active alerts for {state}."
