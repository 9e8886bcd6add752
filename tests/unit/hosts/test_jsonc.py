"""The JSONC reader and surgical editor: positions, comments, and exact round trips."""

from __future__ import annotations

import json

import pytest

from mcpgen.hosts import jsonc

ENTRY = {"command": "/x/bin/weather-server", "args": []}


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [1, 2.5, -3e2, true, false, null, "s\\"q\\u00e9"]}',
        '  {\n "nested": {"deep": {"x": []}}, "u": "\\ud83d\\ude00"}\n',
        '\ufeff{"bom": 1}',
    ],
)
def test_reads_what_json_reads(text: str) -> None:
    assert jsonc.loads(text, jsonc=False) == json.loads(text.lstrip("\ufeff"))


def test_comments_and_trailing_commas_only_in_jsonc() -> None:
    text = '{\n  // line\n  "a": 1, /* block */\n  "b": [1, 2,],\n}\n'
    assert jsonc.loads(text, jsonc=True) == {"a": 1, "b": [1, 2]}
    with pytest.raises(jsonc.JsoncError):
        jsonc.loads(text, jsonc=False)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1',
        '{"a" 1}',
        '{"a": 1} x',
        "",
        '{"a": tru}',
        '{"a": 1,}',
        "{'a': 1}",
        '{"a": /* open',
    ],
)
def test_broken_text_raises_with_a_position(text: str) -> None:
    with pytest.raises(jsonc.JsoncError) as info:
        jsonc.loads(text, jsonc=text.startswith('{"a": /*'))
    assert info.value.line >= 1 and info.value.col >= 1


ROUND_TRIPS = [
    "{}",
    "{}\n",
    '{\n  "a": 1\n}\n',
    '{\n\t"mcpServers": {\n\t\t"other": {"command": "y"}\n\t}\n}\n',
    '{\n  // my servers\n  "mcpServers": {\n    "other": {"command": "y"}, // keep me\n  },\n'
    "  /* tail */\n}\n",
    '{"mcpServers": {"o": 1}}',
    '{\n  "mcpServers": { // none yet\n  }\n}',
    '{\n    "theme": "dark",\n    "mcpServers": {}\n}\n',
]


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_add_then_remove_restores_the_bytes(text: str) -> None:
    added = jsonc.set_member(text, ("mcpServers", "weather"), ENTRY, jsonc=True)
    data = jsonc.loads(added, jsonc=True)
    assert data["mcpServers"]["weather"] == ENTRY
    before = jsonc.loads(text, jsonc=True)
    data["mcpServers"].pop("weather")
    assert {k: v for k, v in data.items() if v != {}} == {
        k: v for k, v in before.items() if v != {}
    }
    removed = jsonc.remove_member(added, ("mcpServers", "weather"), jsonc=True)
    if "mcpServers" in before:
        assert removed == text
    for line in text.splitlines():
        if "//" in line or "/*" in line:
            assert line.strip() in added


def test_replace_keeps_neighbours_and_comments() -> None:
    text = (
        '{\n  "mcpServers": {\n    "a": {"command": "a"}, // first\n    '
        '"weather": {"command": "old"},\n    "z": {"command": "z"} // last\n  }\n}\n'
    )
    out = jsonc.set_member(text, ("mcpServers", "weather"), ENTRY, jsonc=True)
    assert '"a": {"command": "a"}, // first' in out
    assert '"z": {"command": "z"} // last' in out
    assert jsonc.loads(out, jsonc=True)["mcpServers"]["weather"] == ENTRY


def test_remove_middle_first_and_last_members() -> None:
    text = '{\n  "s": {\n    "a": 1,\n    "b": 2,\n    "c": 3\n  }\n}\n'
    assert (
        jsonc.remove_member(text, ("s", "b"), jsonc=False)
        == '{\n  "s": {\n    "a": 1,\n    "c": 3\n  }\n}\n'
    )
    assert (
        jsonc.remove_member(text, ("s", "a"), jsonc=False)
        == '{\n  "s": {\n    "b": 2,\n    "c": 3\n  }\n}\n'
    )
    assert (
        jsonc.remove_member(text, ("s", "c"), jsonc=False)
        == '{\n  "s": {\n    "a": 1,\n    "b": 2\n  }\n}\n'
    )
    assert jsonc.remove_member(text, ("s", "nope"), jsonc=False) == text


def test_array_upsert_and_remove_by_id() -> None:
    text = '{\n  "inputs": [\n    {"id": "keep", "type": "promptString"}\n  ]\n}\n'
    item = {"id": "weather-token", "type": "promptString", "password": True}
    added = jsonc.upsert_items(text, ("inputs",), [item], "id", jsonc=True)
    assert jsonc.loads(added, jsonc=True)["inputs"][1] == item
    again = jsonc.upsert_items(added, ("inputs",), [item], "id", jsonc=True)
    assert again == added
    assert jsonc.remove_items(added, ("inputs",), "id", {"weather-token"}, jsonc=True) == text


def test_non_object_container_is_an_error() -> None:
    with pytest.raises(jsonc.JsoncError):
        jsonc.set_member('{"mcpServers": []}', ("mcpServers", "w"), ENTRY, jsonc=False)
