"""Reference server for the benchmark: the weather tools hand-written on the SDK's `MCPServer`.

Same tools, arguments, constraints and deterministic data as the project `mcpgen new weather`
generates (logic copied from its `src/weather/handlers/*.py`). Run: `python handwritten_weather.py`
(stdio). Only `mcp` is needed.
"""

# No `from __future__ import annotations`: pydantic resolves the models eagerly, which also
# keeps them working when the file runs under `python -m cProfile`.
import hashlib
from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

mcp = MCPServer(
    "weather",
    version="0.1.0",
    instructions=(
        "Use get_forecast for a city's forecast over the next days and get_alerts for active "
        "weather alerts in a US state. Temperatures follow the requested units."
    ),
)

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


class ForecastDay(BaseModel):
    day: Annotated[int, Field(ge=1, description="1 is tomorrow")]
    summary: str
    high: float
    low: float
    precipitation_chance: Annotated[int, Field(ge=0, le=100)]


class Forecast(BaseModel):
    city: str
    units: Literal["metric", "imperial"]
    days: list[ForecastDay]


def _seed(city: str, day: int) -> int:
    digest = hashlib.sha256(f"{city.strip().lower()}/{day}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _to_units(celsius: float, units: str) -> float:
    return round(celsius * 9 / 5 + 32, 1) if units == "imperial" else round(celsius, 1)


@mcp.tool(
    title="Get forecast",
    annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=True),
)
async def get_forecast(
    city: Annotated[str, Field(min_length=1, max_length=100, description="City name, e.g. Paris")],
    days: Annotated[int, Field(ge=1, le=7, description="Number of days")] = 3,
    units: Literal["metric", "imperial"] = "metric",
) -> Forecast:
    """Daily forecast for a city, for up to 7 days."""
    out = []
    for day in range(1, days + 1):
        seed = _seed(city, day)
        low_c = 2 + seed % 15
        out.append(
            ForecastDay(
                day=day,
                summary=SUMMARIES[seed % len(SUMMARIES)],
                high=_to_units(low_c + 4 + seed % 9, units),
                low=_to_units(low_c, units),
                precipitation_chance=seed % 101,
            )
        )
    return Forecast(city=city, units=units, days=out)


@mcp.tool(
    title="Get alerts",
    annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True),
    structured_output=False,
)
async def get_alerts(
    state: Annotated[
        str, Field(pattern=r"^[A-Z]{2}$", description="Two-letter US state code, e.g. CA")
    ],
    min_severity: Literal["minor", "moderate", "severe", "extreme"] = "minor",
) -> str:
    """Active weather alerts for a US state, as text."""
    threshold = SEVERITIES.index(min_severity)
    alerts = [
        f"[{severity}] {text}"
        for severity, text in ALERTS.get(state, [])
        if SEVERITIES.index(severity) >= threshold
    ]
    return "\n".join(alerts) if alerts else f"No active alerts for {state}."


if __name__ == "__main__":
    mcp.run()
