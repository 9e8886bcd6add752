"""Reference server: the weather tools hand-written on the SDK's high-level `MCPServer`.

Same tools, arguments, constraints and data as the project `mcpgen new weather` generates.
`python mcpserver_weather.py` serves stdio; `--http PORT [--stateless] [--json]` Streamable
HTTP at /mcp. Only `mcp` is needed.
"""

# No `from __future__ import annotations`: pydantic resolves the models eagerly.
import sys
from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field
from weather_logic import INSTRUCTIONS, alerts_text, forecast_days

mcp = MCPServer("weather", version="0.1.0", instructions=INSTRUCTIONS)


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
    return Forecast.model_validate(
        {"city": city, "units": units, "days": forecast_days(city, days, units)}
    )


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
    return alerts_text(state, min_severity)


if __name__ == "__main__":
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        mcp.run(
            "streamable-http",
            host="127.0.0.1",
            port=port,
            stateless_http="--stateless" in sys.argv,
            json_response="--json" in sys.argv,
        )
    else:
        mcp.run()
