"""The state file: byte-stable, round-trips, and a damaged one is a readable error."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.errors import McpgenError
from mcpgen.write.state import (
    STATE_PATH,
    State,
    ToolRecord,
    load_state,
    parse_state,
    render_state,
    sha256_hex,
    snapshot,
)
from tests.support.in_memory import manifest_of, plan_of, tool


def _state() -> State:
    record = ToolRecord("b", "b", {"name": "b", "inputSchema": {"type": "object"}}, ("x.py",))
    return State("9.9.9", {"z.py": "1", "a.py": "2"}, {"b": record})


def test_render_is_deterministic_and_sorted() -> None:
    text = render_state(_state())
    assert text == render_state(_state())
    assert text.index('"a.py"') < text.index('"z.py"')
    assert text.endswith("\n")


def test_round_trip() -> None:
    state = parse_state(render_state(_state()))
    assert render_state(state) == render_state(_state())
    assert state.tools["b"].input_schema == {"type": "object"}
    assert state.tools["b"].output_schema is None


def test_missing_state_is_none(tmp_path: Path) -> None:
    assert load_state(tmp_path) is None


@pytest.mark.parametrize("text", ["{", "[]", '{"format": 99}', '{"format": 1}'])
def test_damaged_state_is_a_user_error(tmp_path: Path, text: str) -> None:
    (tmp_path / STATE_PATH).parent.mkdir()
    (tmp_path / STATE_PATH).write_text(text)
    with pytest.raises(McpgenError, match="damaged"):
        load_state(tmp_path)


def test_snapshot_records_generated_hashes_and_user_files() -> None:
    manifest = manifest_of(tool("ping", {"x": {"type": "string"}}))
    plan = plan_of(
        ("gen.py", "g", "generated"),
        ("handlers/ping.py", "h", "user", "ping"),
        ("hosts/a.json", "{}", "local"),
    )
    state = snapshot(manifest, plan, version="1.0")
    assert state.files == {"gen.py": sha256_hex(b"g")}
    assert state.tools["ping"].user_files == ("handlers/ping.py",)
    assert state.tools["ping"].wire["inputSchema"]["properties"] == {"x": {"type": "string"}}
