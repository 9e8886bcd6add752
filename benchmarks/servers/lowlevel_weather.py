"""Reference server: the weather tools hand-written on the SDK's low-level `Server`.

What a careful hand-written server does: pydantic models validate the arguments, the tool
list is built once. `python lowlevel_weather.py` serves stdio; `--http PORT [--stateless]
[--json]` Streamable HTTP at /mcp; `--tools FILE` publishes that JSON list of tool
definitions instead (the 200-tool comparison: calling them is not supported).
"""

import json
import sys
from typing import Annotated, Any, Literal

import anyio
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)
from pydantic import BaseModel, Field, ValidationError
from weather_logic import INSTRUCTIONS, alerts_text, forecast_days


class ForecastArgs(BaseModel):
    city: Annotated[str, Field(min_length=1, max_length=100, description="City name, e.g. Paris")]
    days: Annotated[int, Field(ge=1, le=7, description="Number of days")] = 3
    units: Literal["metric", "imperial"] = "metric"


class AlertsArgs(BaseModel):
    state: Annotated[
        str, Field(pattern=r"^[A-Z]{2}$", description="Two-letter US state code, e.g. CA")
    ]
    min_severity: Literal["minor", "moderate", "severe", "extreme"] = "minor"


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


WEATHER_TOOLS = [
    Tool(
        name="get_forecast",
        title="Get forecast",
        description="Daily forecast for a city, for up to 7 days.",
        input_schema=ForecastArgs.model_json_schema(),
        output_schema=Forecast.model_json_schema(),
        annotations={"readOnlyHint": True, "idempotentHint": True, "openWorldHint": True},
    ),
    Tool(
        name="get_alerts",
        title="Get alerts",
        description="Active weather alerts for a US state, as text.",
        input_schema=AlertsArgs.model_json_schema(),
        annotations={"readOnlyHint": True, "openWorldHint": True},
    ),
]


def _error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _forecast(arguments: dict[str, Any]) -> CallToolResult:
    args = ForecastArgs.model_validate(arguments)
    data = {"city": args.city, "units": args.units}
    data["days"] = forecast_days(args.city, args.days, args.units)
    checked = Forecast.model_validate(data).model_dump(mode="json")
    text = json.dumps(checked, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=checked)


def _alerts(arguments: dict[str, Any]) -> CallToolResult:
    args = AlertsArgs.model_validate(arguments)
    text = alerts_text(args.state, args.min_severity)
    return CallToolResult(content=[TextContent(type="text", text=text)])


HANDLERS = {"get_forecast": _forecast, "get_alerts": _alerts}


def build(tools: list[Tool]) -> Server[Any]:
    listed = ListToolsResult(tools=tools)

    async def list_tools(ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None):
        return listed

    async def call_tool(ctx: ServerRequestContext[Any], params: CallToolRequestParams):
        handler = HANDLERS.get(params.name)
        if handler is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        try:
            return handler(params.arguments or {})
        except ValidationError as exc:
            return _error(f"Invalid arguments for tool {params.name!r}: {exc}")

    return Server(
        "weather",
        version="0.1.0",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main(argv: list[str]) -> None:
    tools = WEATHER_TOOLS
    if "--tools" in argv:
        with open(argv[argv.index("--tools") + 1], encoding="utf-8") as file:
            tools = [Tool.model_validate(t) for t in json.load(file)]
    server = build(tools)
    if "--http" in argv:
        import uvicorn

        app = server.streamable_http_app(
            stateless_http="--stateless" in argv, json_response="--json" in argv
        )
        port = int(argv[argv.index("--http") + 1])
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
    else:
        anyio.run(serve_stdio, server)


if __name__ == "__main__":
    main(sys.argv[1:])
