"""`mcpgen add tool`: every byte outside the appended tool stays as the user wrote it.

Each case spells out the whole expected file, so a changed comment, key order, quote, blank
line or line ending anywhere fails the test, not just a wrong tool list.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from mcpgen.cli import main
from mcpgen.errors import McpgenError
from mcpgen.manifest.append import append_tool
from tests.support.demo_project import Run

DESCRIPTION = "'TODO: say what ping does and when to use it'"
FLOW_PING = (
    f"{{name: ping, description: {DESCRIPTION}, input_schema: {{type: object, properties: {{}}}}}}"
)


def block_ping(dash_col: int, newline: str = "\n") -> str:
    """The skeleton as block lines, its dash at `dash_col`, the items two columns further."""
    lines = [
        "- name: ping",
        f"  description: {DESCRIPTION}",
        "  input_schema:",
        "    type: object",
        "    properties: {}",
    ]
    return "".join(" " * dash_col + line + newline for line in lines)


def tool_names(text: str) -> list[str]:
    return [t["name"] for t in YAML(typ="safe").load(text)["tools"]]


COMMENTED = """\
# yaml-language-server: $schema=./mcpgen.schema.json
name: demo   # the server
version: "0.1.0"
tools:
  # the first tool
  - name: a            # trailing comment
    input_schema: {type: object, properties: {x: {type: string}}}   # flow map
    annotations: {readOnlyHint: true}
  # - name: commented_out_tool
{PING}
# about env: a column-0 comment belongs to the next key
env:
  X: {description: 'quoted', secret: true}
description: last key, out of the usual order
"""


def test_comments_flow_maps_and_key_order_are_kept() -> None:
    original = COMMENTED.replace("{PING}\n", "\n")
    expected = COMMENTED.replace("{PING}\n", block_ping(2) + "\n")
    assert append_tool(original, "ping") == expected
    assert tool_names(expected) == ["a", "ping"]


def test_crlf_stays_crlf() -> None:
    original = COMMENTED.replace("{PING}\n", "\n").replace("\n", "\r\n")
    expected = COMMENTED.replace("{PING}\n", block_ping(2) + "\n").replace("\n", "\r\n")
    result = append_tool(original, "ping")
    assert result == expected
    assert result.count("\n") == result.count("\r\n")


def test_flow_style_list_gets_a_flow_item() -> None:
    original = "name: demo\ntools: [{name: a, input_schema: {type: object}}]  # one\nversion: 1\n"
    expected = original.replace("}}]", "}}, " + FLOW_PING + "]")
    assert append_tool(original, "ping") == expected
    assert tool_names(expected) == ["a", "ping"]


def test_flow_list_over_several_lines_with_a_trailing_comma() -> None:
    original = "tools: [\n  {name: a, input_schema: {type: object}},  # c\n]\nname: demo\n"
    expected = original.replace("}},", "}}, " + FLOW_PING + ",")
    assert append_tool(original, "ping") == expected


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        (
            "# hi\nname: demo\ntools: []   # none yet\nversion: 0.1.0\n",
            "# hi\nname: demo\ntools:   # none yet\n" + block_ping(2) + "version: 0.1.0\n",
        ),
        ("name: demo\ntools: []", "name: demo\ntools:\n" + block_ping(2)),
        (
            "name: demo\ntools:\nversion: 1\n",
            "name: demo\ntools:\n" + block_ping(2) + "version: 1\n",
        ),
        ("name: demo\ntools: ~  # c\n", "name: demo\ntools:  # c\n" + block_ping(2)),
        ("name: demo\n# bye\n", "name: demo\n# bye\ntools:\n" + block_ping(2)),
        ("name: demo\r\nx: 1", "name: demo\r\nx: 1\r\ntools:\r\n" + block_ping(2, "\r\n")),
    ],
    ids=["empty-list", "empty-list-at-eof", "null", "explicit-null", "no-key", "no-key-crlf"],
)
def test_empty_null_or_missing_tools_becomes_a_block_list(original: str, expected: str) -> None:
    assert append_tool(original, "ping") == expected
    assert tool_names(expected) == ["ping"]


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        (
            "name: demo\ntools:\n- name: a\n  input_schema: {type: object}",
            "name: demo\ntools:\n- name: a\n  input_schema: {type: object}\n" + block_ping(0),
        ),
        (
            "name: demo\ntools:\n  - name: a\n    input_schema: {type: object}\n\n# end",
            "name: demo\ntools:\n  - name: a\n    input_schema: {type: object}\n"
            + block_ping(2)
            + "\n# end",
        ),
        (
            "name: demo\r\ntools:\r\n    -   name: a\r\n        input_schema: {type: object}",
            "name: demo\r\ntools:\r\n    -   name: a\r\n        input_schema: {type: object}\r\n"
            + "    -   name: ping\r\n"
            + f"        description: {DESCRIPTION}\r\n"
            + "        input_schema:\r\n          type: object\r\n          properties: {}\r\n",
        ),
    ],
    ids=["last-line", "last-comment-without-newline", "crlf-wide-indent"],
)
def test_tools_at_the_end_without_a_trailing_newline(original: str, expected: str) -> None:
    # The user's last line only gains the line break the new item needs; a comment after the
    # list keeps its missing newline.
    assert append_tool(original, "ping") == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: demo\ntools: {a: 1}\n", "`tools` is not a list"),
        ("{name: demo, tools: []}\n", "flow style"),
        ("- a\n", "top level is not a mapping"),
        ("name: [\n", "not valid YAML"),
    ],
)
def test_manifests_it_cannot_edit_are_refused(text: str, message: str) -> None:
    with pytest.raises(McpgenError, match=message):
        append_tool(text, "ping")


def _cli(*argv: str) -> int:
    try:
        main(list(argv))
    except SystemExit as done:
        return int(done.code or 0)
    return 0


def test_cli_keeps_bom_and_crlf_then_generates(project: Run) -> None:
    manifest = project.root / "mcpgen.yaml"
    original = manifest.read_text(encoding="utf-8").replace("\n", "\r\n")
    manifest.write_bytes(codecs.BOM_UTF8 + original.encode("utf-8"))
    assert _cli("add", "tool", "ping", "--dir", str(project.root)) == 0
    written = manifest.read_bytes()
    expected = original + block_ping(2, "\r\n")
    assert written == codecs.BOM_UTF8 + expected.encode("utf-8")
    assert (project.root / "src/demo/handlers/ping.py").is_file()
    assert (project.root / "tests/test_ping.py").is_file()


def test_cli_refusal_leaves_the_manifest_alone(project: Run, tmp_path: Path) -> None:
    manifest = project.root / "mcpgen.yaml"
    before = manifest.read_bytes()
    assert _cli("add", "tool", "get_alerts", "--dir", str(project.root)) == 1
    assert _cli("add", "tool", "bad name!", "--dir", str(project.root)) == 1
    assert manifest.read_bytes() == before
    assert not list(project.root.glob(".mcpgen.yaml*"))  # no temp file left behind
