"""What a project gets for tools bound to an HTTP API: their binding in `_generated/apis.py`,
a loader that builds their handler from it, the `upstream` runtime, and no handler files;
a project without such tools gets none of it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from mcpgen.manifest import load_manifest
from mcpgen.manifest.model import Manifest, OpenApiSource
from mcpgen.render.plan import RenderPlan, render_plan

REPO = Path(__file__).resolve().parents[4]
BINDING = {
    "api": "forecasts",
    "method": "GET",
    "path": "/forecast/{city}",
    "parameters": [{"name": "city", "in": "path", "argument": "city", "required": True}],
    "body": None,
    "response": {"wrap": None, "empty": False},
    "output_validation": "strict",
    "response_schema": None,
}
SOURCE = OpenApiSource(
    key="forecasts",
    spec="openapi/forecasts.json",
    base_url="https://forecasts.test/v1",
    base_url_env="FORECASTS_BASE_URL",
    auth={"bearer_env": "FORECASTS_TOKEN"},
)


def weather() -> Manifest:
    return load_manifest(REPO / "examples" / "weather" / "mcpgen.yaml")


def bound_weather() -> Manifest:
    manifest = weather()
    forecast = dataclasses.replace(manifest.tools[0], binding=BINDING, api="forecasts")
    return dataclasses.replace(manifest, tools=(forecast, *manifest.tools[1:]), apis=(SOURCE,))


def paths(plan: RenderPlan) -> set[str]:
    return {f.path for f in plan.files}


def content(plan: RenderPlan, path: str) -> str:
    planned = plan.get(path)
    assert planned is not None, path
    return planned.content


def test_a_bound_tool_is_loaded_from_its_binding_and_has_no_handler() -> None:
    plan = render_plan(bound_weather())
    files = paths(plan)
    assert "src/weather/_generated/apis.py" in files
    assert "src/weather/handlers/get_forecast.py" not in files
    assert "tests/test_get_forecast.py" not in files
    assert "src/weather/handlers/get_alerts.py" in files  # the other tool keeps its handler
    tools = content(plan, "src/weather/_generated/tools.py")
    call = "tool_handler('get_forecast', source, binding, structured=True)"
    assert call in tools.replace('"', "'")  # its output schema asks for a JSON answer
    assert "weather.handlers.get_forecast" not in tools
    apis = content(plan, "src/weather/_generated/apis.py")
    assert "'FORECASTS_BASE_URL'" in apis.replace('"', "'") and "/forecast/{city}" in apis
    assert "Calls: `GET /forecast/{city}` on the `forecasts` API" in content(plan, "TOOLS.md")
    assert "test_bound_call_sends_its_request" in content(plan, "tests/test_contract.py")


def test_only_a_project_with_bound_tools_vendors_the_upstream_layer() -> None:
    bound, plain = paths(render_plan(bound_weather())), paths(render_plan(weather()))
    upstream = "src/weather/_runtime/upstream/"
    assert {p for p in bound if p.startswith(upstream)} >= {
        f"{upstream}{name}.py" for name in ("__init__", "handler", "call", "request", "client")
    }
    assert not any(p.startswith(upstream) for p in plain)
    assert "src/weather/_generated/apis.py" not in plain
    assert "bound_call" not in content(render_plan(weather()), "tests/test_contract.py")


def test_generated_stays_within_eight_modules() -> None:
    generated = [
        p for p in paths(render_plan(bound_weather())) if p.startswith("src/weather/_generated/")
    ]
    assert len(generated) <= 8
