"""Resources, templates, prompts and completions through a real SDK client, in both eras."""

from __future__ import annotations

import base64
import contextlib
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import (
    BlobResourceContents,
    ImageContent,
    PromptMessage,
    PromptReference,
    ResourceTemplateReference,
    ServerNotification,
    TextContent,
    TextResourceContents,
)

from mcpgen.runtime.catalog import resources as resources_module
from mcpgen.runtime.catalog.catalog import Catalog
from mcpgen.runtime.catalog.prompts import PromptSpec
from mcpgen.runtime.catalog.resources import ResourceSpec, TemplateSpec
from mcpgen.runtime.catalog.template_values import Refused, decoded, typed
from mcpgen.runtime.catalog.uri_template import UriTemplate
from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.context import Context
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import build_server

ERAS = ["legacy", "2026-07-28"]
PNG = base64.b64encode(b"\x89PNG\r\n").decode()


def settings() -> dict[str, Any]:
    return {"theme": "dark"}


async def note(folder: str, id: int, ctx: Context) -> str:
    assert isinstance(ctx, Context)
    return f"{folder}/{id}: {type(id).__name__}"


def summarize(note_id: str) -> list[Any]:
    image = ImageContent(type="image", data=PNG, mime_type="image/png")
    return [f"Summarize {note_id}", image]


CATALOG_ARGS: dict[str, Any] = {
    "resources": [
        ResourceSpec({"uri": "test://text", "name": "text", "mimeType": "text/plain"}, text="hi"),
        ResourceSpec({"uri": "test://logo", "name": "logo", "mimeType": "image/png"}, blob=PNG),
        ResourceSpec({"uri": "config://settings", "name": "settings"}, handler=settings),
        ResourceSpec({"uri": "test://watched", "name": "watched"}, text="w", subscribe=True),
    ],
    "templates": [
        TemplateSpec(
            {"uriTemplate": "notes://{folder}/{id}", "name": "note"},
            handler=note,
            parameters={"id": {"type": "integer", "minimum": 1}},
            completions={"folder": ["inbox", "archive", "Important"]},
        )
    ],
    "prompts": [
        PromptSpec(
            {
                "name": "greet",
                "description": "Says hello",
                "arguments": [{"name": "who", "required": True}, {"name": "mood"}],
            },
            template="Hello {who}, {mood}!",
            completions={"who": ["ann", "bob"]},
        ),
        PromptSpec(
            {"name": "summarize", "arguments": [{"name": "note_id", "required": True}]},
            handler=summarize,
        ),
    ],
}


def server(**catalog: Any) -> Any:
    info = ServerInfo(
        name="cat",
        version="0.1.0",
        script="cat-server",
        description="Catalog.",
        catalog=Catalog(**(catalog or CATALOG_ARGS)),
    )
    return build_server(info, Dispatcher(()))


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_resources_list_and_read(era: str) -> None:
    async with Client(server(), mode=era) as client:  # type: ignore[arg-type]
        listed = await client.list_resources()
        assert [r.uri for r in listed.resources] == [
            "test://text",
            "test://logo",
            "config://settings",
            "test://watched",
        ]
        text = (await client.read_resource("test://text")).contents[0]
        assert isinstance(text, TextResourceContents) and text.text == "hi"
        assert text.mime_type == "text/plain"
        blob = (await client.read_resource("test://logo")).contents[0]
        assert isinstance(blob, BlobResourceContents) and blob.blob == PNG
        handled = (await client.read_resource("config://settings")).contents[0]
        assert isinstance(handled, TextResourceContents)
        assert handled.text == '{"theme": "dark"}' and handled.mime_type == "application/json"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_templates_match_typed_and_validated(era: str) -> None:
    async with Client(server(), mode=era) as client:  # type: ignore[arg-type]
        listed = await client.list_resource_templates()
        assert [t.uri_template for t in listed.resource_templates] == ["notes://{folder}/{id}"]
        read = (await client.read_resource("notes://inbox/42")).contents[0]
        assert isinstance(read, TextResourceContents) and read.text == "inbox/42: int"
        with pytest.raises(MCPError) as invalid:
            await client.read_resource("notes://inbox/0")
        assert invalid.value.error.code == -32602
        with pytest.raises(MCPError) as missing:
            await client.read_resource("nothing://here")
        assert missing.value.error.code == -32002


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_prompts_from_template_and_handler(era: str) -> None:
    async with Client(server(), mode=era) as client:  # type: ignore[arg-type]
        listed = await client.list_prompts()
        assert [p.name for p in listed.prompts] == ["greet", "summarize"]
        assert [a.required for a in listed.prompts[0].arguments or ()] == [True, None]
        got = await client.get_prompt("greet", {"who": "Ann"})
        assert got.description == "Says hello"
        assert got.messages == [
            PromptMessage(role="user", content=TextContent(type="text", text="Hello Ann, !"))
        ]
        handled = await client.get_prompt("summarize", {"note_id": "7"})
        assert [m.content.type for m in handled.messages] == ["text", "image"]
        for bad in (("greet", {}), ("greet", {"who": "a", "x": "y"}), ("nope", {})):
            with pytest.raises(MCPError) as refused:
                await client.get_prompt(bad[0], bad[1])
            assert refused.value.error.code == -32602


@pytest.mark.anyio
async def test_completions_for_template_variables_and_prompt_arguments() -> None:
    async with Client(server()) as client:
        ref = ResourceTemplateReference(type="ref/resource", uri="notes://{folder}/{id}")
        found = await client.complete(ref, {"name": "folder", "value": "i"})
        assert found.completion.values == ["inbox", "Important"]
        assert (await client.complete(ref, {"name": "id", "value": ""})).completion.values == []
        prompt = PromptReference(type="ref/prompt", name="greet")
        found = await client.complete(prompt, {"name": "who", "value": "b"})
        assert found.completion.values == ["bob"] and found.completion.total == 1


@pytest.mark.anyio
async def test_subscribers_are_told_of_updates_until_they_unsubscribe() -> None:
    updated: list[str] = []
    catalog = Catalog(**CATALOG_ARGS)
    info = ServerInfo(name="c", version="1", script="c", description="c", catalog=catalog)

    async def on_message(message: Any) -> None:
        if isinstance(message, ServerNotification) and message.method == (
            "notifications/resources/updated"
        ):
            updated.append(str(message.params.uri))

    # resources/subscribe belongs to the handshake era (the 2026 one listens instead).
    legacy = Client(build_server(info, Dispatcher(())), mode="legacy", message_handler=on_message)
    async with legacy as client:
        with pytest.raises(MCPError) as refused:
            await client.subscribe_resource("test://text")
        assert refused.value.error.code == -32602
        await client.subscribe_resource("test://watched")
        assert await catalog.resource_updated("test://watched") == 1
        with anyio.fail_after(5):
            while not updated:
                await anyio.sleep(0.01)
        await client.unsubscribe_resource("test://watched")
        assert await catalog.resource_updated("test://watched") == 0
    assert updated == ["test://watched"]


@pytest.mark.anyio
async def test_capabilities_are_exactly_what_the_catalog_uses() -> None:
    async with Client(server(), mode="legacy") as client:
        caps = client.server_capabilities
        assert caps.resources is not None and caps.resources.subscribe
        assert caps.prompts is not None and caps.completions is not None
    static = {"resources": CATALOG_ARGS["resources"][:1]}
    async with Client(server(**static)) as client:
        caps = client.server_capabilities
        assert caps.resources is not None and not caps.resources.subscribe
        assert caps.prompts is None and caps.completions is None
    info = ServerInfo(name="t", version="1", script="t", description="t")
    async with Client(build_server(info, Dispatcher(()))) as client:
        caps = client.server_capabilities
        assert caps.resources is None and caps.prompts is None and caps.completions is None


@pytest.mark.anyio
async def test_lists_are_paginated() -> None:
    many = [ResourceSpec({"uri": f"n://{i}", "name": f"r{i}"}, text="x") for i in range(250)]
    async with Client(server(resources=many)) as client:
        pages = [await client.list_resources()]
        while pages[-1].next_cursor:
            pages.append(await client.list_resources(cursor=pages[-1].next_cursor))
        assert [len(p.resources) for p in pages] == [100, 100, 50]
        with pytest.raises(MCPError) as bad:
            await client.list_resources(cursor="nonsense")
        assert bad.value.error.code == -32602


@pytest.mark.parametrize(
    ("template", "uri", "expected"),
    [
        ("a://{x}/{y}", "a://1/two", {"x": "1", "y": "two"}),
        ("a://{x}/{y}", "a://1/two/3", None),
        ("a://f/{+path}", "a://f/b/c.txt", {"path": "b/c.txt"}),
        ("a://s{?q,n}", "a://s?n=2&q=hi%20there", {"q": "hi there", "n": "2"}),
        ("a://{x}{.ext}", "a://file.md", {"x": "file", "ext": "md"}),
        ("test://template/{id}/data", "test://template/123/data", {"id": "123"}),
        ("a://{;x,y}", "a://;x=1;y", {"x": "1", "y": ""}),
        ("a://f{/path*}", "a://f/a/b/c", {"path": "a/b/c"}),
        ("a://x?fixed=1{&page}", "a://x?fixed=1&page=3", {"page": "3"}),
        ("a://s{?q}", "a://s?q=1#frag", {"q": "1"}),
    ],
)
def test_template_matching(template: str, uri: str, expected: dict[str, str] | None) -> None:
    found = UriTemplate(template).match(uri)
    if found is None:
        assert expected is None
        return
    path, query = found
    assert {name: decoded(raw) for name, raw in [*path.items(), *query]} == expected


def test_typed_values_are_strict() -> None:
    assert typed("12", {"type": "integer"}) == 12
    assert typed("-7", {"type": "integer"}) == -7
    assert typed("2.5e1", {"type": "number"}) == 25.0
    assert typed("true", {"type": "boolean"}) is True
    for text, kind in [
        ("x", "integer"),
        ("1_000", "integer"),
        ("+5", "integer"),
        (" 5", "integer"),
        ("\u0665", "integer"),
        ("nan", "number"),
        ("Infinity", "number"),
        ("1e400", "number"),
        ("yes", "boolean"),
    ]:
        with pytest.raises(Refused):
            typed(text, {"type": kind})


@pytest.mark.anyio
async def test_subscriptions_go_when_the_connection_closes() -> None:
    catalog = Catalog(**CATALOG_ARGS)
    info = ServerInfo(name="c", version="1", script="c", description="c", catalog=catalog)
    legacy = Client(build_server(info, Dispatcher(())), mode="legacy")
    async with legacy as client:
        await client.subscribe_resource("test://watched")
        await client.subscribe_resource("test://watched")
        assert len(catalog.subscriptions) == 1
    with anyio.fail_after(5):
        while len(catalog.subscriptions):
            await anyio.sleep(0.01)
    assert await catalog.resource_updated("test://watched") == 0


class _Outbound:
    def __init__(self, stuck: bool) -> None:
        self.stuck, self.sent = stuck, 0

    async def notify(self, method: str, params: Any) -> None:
        if self.stuck:  # a client that stopped reading its stream
            await anyio.sleep_forever()
        self.sent += 1


class _Connection:
    def __init__(self, stuck: bool = False) -> None:
        self.outbound = _Outbound(stuck)
        self.exit_stack = contextlib.AsyncExitStack()


@pytest.mark.anyio
async def test_a_subscriber_that_stops_reading_holds_up_no_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(resources_module, "NOTIFY_TIMEOUT", 0.2)
    subscriptions = resources_module.Subscriptions()
    stuck, reading = _Connection(stuck=True), _Connection()
    for connection in (stuck, reading):
        subscriptions.add("a://x", SimpleNamespace(_connection=connection))
    with anyio.fail_after(10):
        assert await subscriptions.notify("a://x") == 1
    assert reading.outbound.sent == 1
    await stuck.exit_stack.aclose()  # the connection ends: its subscription goes
    assert len(subscriptions) == 1
