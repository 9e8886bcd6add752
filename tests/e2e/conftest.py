"""Fixtures of the end-to-end tests (marked `e2e`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.project_venv import ProjectVenv, shared_venv


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def project_venv() -> ProjectVenv:
    return shared_venv()


@pytest.fixture
def anyio_backend() -> Iterator[str]:
    yield "asyncio"
