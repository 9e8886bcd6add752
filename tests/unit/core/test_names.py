"""mcpgen.core.names: stable, valid Python and distribution names from manifest names."""

from __future__ import annotations

import keyword

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcpgen.core import names


@pytest.mark.parametrize(
    ("name", "identifier"),
    [
        ("get_forecast", "get_forecast"),
        ("list-items", "list_items"),
        ("list.items", "list_items"),
        ("Thermostat.SetMode", "thermostat_set_mode"),
        ("API-get-user", "api_get_user"),
        ("HTTPServer", "http_server"),
        ("Stock-Adjust", "stock_adjust"),
        ("class", "class_"),
        ("match", "match_"),  # soft keywords too: they read badly as names
        ("3d_model", "tool_3d_model"),
        ("", "tool"),
        ("---", "tool"),
    ],
)
def test_python_identifier(name: str, identifier: str) -> None:
    assert names.python_identifier(name) == identifier


@given(st.text(alphabet=st.sampled_from([*"abcXYZ019_.-", "é"]), max_size=20))
def test_python_identifier_is_always_usable(name: str) -> None:
    identifier = names.python_identifier(name)
    assert names.is_identifier(identifier)
    assert not keyword.issoftkeyword(identifier)
    assert names.python_identifier(identifier) == identifier  # idempotent


@pytest.mark.parametrize(
    ("identifier", "cls"),
    [("get_forecast", "GetForecast"), ("tool_3d_model", "Tool3dModel"), ("", "Tool"), ("a", "A")],
)
def test_class_name(identifier: str, cls: str) -> None:
    assert names.class_name(identifier) == cls


@pytest.mark.parametrize(
    ("server", "distribution", "package"),
    [
        ("weather", "weather", "weather"),
        ("acme-crm", "acme-crm", "acme_crm"),
        ("Acme CRM", "acme-crm", "acme_crm"),
        ("maison-connectée", "maison-connectee", "maison_connectee"),
        ("3d", "mcp-3d", "mcp_3d"),
    ],
)
def test_distribution_and_package_names(server: str, distribution: str, package: str) -> None:
    assert names.distribution_name(server) == distribution
    assert names.package_name(server) == package
    assert names.script_name(distribution) == f"{distribution}-server"


def test_names_without_an_ascii_form_stay_distinct_and_stable() -> None:
    first, second = names.distribution_name("天气-tools"), names.distribution_name("地图-tools")
    assert first.startswith("tools-") and second.startswith("tools-")
    assert first != second
    assert names.distribution_name("天气-tools") == first
    assert names.is_identifier(names.package_name("天气"))


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("ok_1", True),
        ("_x", True),
        ("match", True),
        ("class", False),
        ("1a", False),
        ("café", False),
        ("a-b", False),
        ("", False),
    ],
)
def test_is_identifier(name: str, valid: bool) -> None:
    assert names.is_identifier(name) is valid
