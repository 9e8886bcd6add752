"""A `subscribe: true` resource notifies clients of both protocol eras, against real generated
server processes and the real `mcp` client: `subscriptions/listen` streams at 2026-07-28
(where `resources/subscribe` is gone), `resources/subscribe` before, one `resource_updated`
telling both."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.subscriptions import ResourceUpdated
from mcp.types import ResourceUpdatedNotification

from tests.support.project_venv import ProjectVenv, free_port, run_mcpgen, wait_for_port

pytestmark = pytest.mark.anyio

MANIFEST = """\
name: board
version: 0.1.0
tools:
  - name: touch
    description: Says the notes changed; how many handshake-era sessions were told.
    input_schema: {type: object}
resources:
  - uri: board://notes
    name: notes
    mime_type: text/plain
    text: The notes.
    subscribe: true
  - uri: board://rules
    name: rules
    mime_type: text/plain
    text: The rules.
"""
TOUCH = """\
from board._generated.catalog_table import CATALOG


async def touch(args):
    return str(await CATALOG.resource_updated("board://notes"))
"""
NOTES = "board://notes"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("listen") / "board"
    manifest = root.parent / "mcpgen.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    run_mcpgen("new", "--manifest", str(manifest), "--dir", str(root), "--no-input", "--no-git")
    (root / "src" / "board" / "handlers" / "touch.py").write_text(TOUCH, encoding="utf-8")
    return root


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(root / "src")}


@pytest.fixture(scope="module")
def url(board: Path, project_venv: ProjectVenv) -> Iterator[str]:
    port = free_port()
    command = [str(project_venv.python), "-m", "board", "--transport", "http", "--port", str(port)]
    process = subprocess.Popen(command, env=_env(board), stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


class Updates:
    """The resource updates a handshake-era client is told of."""

    def __init__(self) -> None:
        self.uris: list[str] = []
        self.arrived = anyio.Event()

    async def __call__(self, message: Any) -> None:
        notification = getattr(message, "root", message)
        if isinstance(notification, ResourceUpdatedNotification):
            self.uris.append(str(notification.params.uri))
            self.arrived.set()


async def test_2026_clients_listen_and_are_told_of_updates(url: str) -> None:
    async with Client(url, read_timeout_seconds=20) as client:
        assert client.protocol_version == "2026-07-28"
        declared = client.server_capabilities
        assert declared.resources is not None and declared.resources.subscribe is True
        # The lists come from the manifest and never change: nobody is told to wait for it.
        assert declared.resources.list_changed is False
        assert declared.tools is not None and declared.tools.list_changed is False
        async with client.listen(resource_subscriptions=[NOTES]) as subscription:
            assert subscription.honored.resource_subscriptions == [NOTES]
            async with Client(url, read_timeout_seconds=20) as other:
                await other.call_tool("touch", {})
            with anyio.fail_after(10):
                event = await subscription.__anext__()
            assert event == ResourceUpdated(uri=NOTES)


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")  # the handshake era's way
async def test_one_update_tells_both_eras(url: str) -> None:
    updates = Updates()
    async with (
        Client(url, mode="legacy", message_handler=updates, read_timeout_seconds=20) as legacy,
        Client(url, read_timeout_seconds=20) as modern,
    ):
        assert legacy.protocol_version == "2025-11-25"
        await legacy.subscribe_resource(NOTES)
        async with modern.listen(resource_subscriptions=[NOTES]) as subscription:
            told = await modern.call_tool("touch", {})
            assert told.content[0].text == "1"  # type: ignore[union-attr]  # the legacy session
            with anyio.fail_after(10):
                event = await subscription.__anext__()
                await updates.arrived.wait()
        assert event == ResourceUpdated(uri=NOTES)
        assert updates.uris == [NOTES]


async def test_a_listen_stream_gets_only_what_it_asked_for(url: str) -> None:
    async with Client(url, read_timeout_seconds=20) as client:
        async with client.listen(resource_subscriptions=["board://rules"]) as subscription:
            await client.call_tool("touch", {})
            with anyio.move_on_after(1) as waited:
                await subscription.__anext__()
            assert waited.cancelled_caught  # nothing came: the notes were not asked for


async def test_2026_clients_listen_over_stdio(board: Path, project_venv: ProjectVenv) -> None:
    params = StdioServerParameters(
        command=str(project_venv.python), args=["-m", "board"], env=_env(board)
    )
    async with Client(params, read_timeout_seconds=20) as client:
        assert client.protocol_version == "2026-07-28"
        async with client.listen(resource_subscriptions=[NOTES]) as subscription:
            await client.call_tool("touch", {})
            with anyio.fail_after(10):
                event = await subscription.__anext__()
        assert event == ResourceUpdated(uri=NOTES)
