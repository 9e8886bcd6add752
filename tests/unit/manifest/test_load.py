"""mcpgen.manifest.load: YAML → plain data, source map, and a diagnostic for every trap."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpgen.errors import Diagnostic
from mcpgen.manifest import check_text
from mcpgen.manifest.load import LoadedYaml, load_yaml
from mcpgen.manifest.sourcemap import SourceMap, format_path


def load(text: str) -> LoadedYaml:
    return load_yaml(text, "m.yaml")


def where(loaded: LoadedYaml) -> list[tuple[int, int, str]]:
    return [(d.line, d.col, d.level) for d in loaded.diagnostics]


def only(loaded: LoadedYaml) -> Diagnostic:
    assert len(loaded.diagnostics) == 1, loaded.diagnostics
    return loaded.diagnostics[0]


def test_plain_data_and_positions_of_keys_and_values() -> None:
    loaded = load("name: x\ntools:\n  - name: a\n    input_schema: {type: object}\n")
    assert loaded.data == {
        "name": "x",
        "tools": [{"name": "a", "input_schema": {"type": "object"}}],
    }
    assert loaded.diagnostics == []
    source = loaded.source_map
    assert source.key_at(("tools", 0, "name")) == (3, 5)
    assert source.value_at(("tools", 0, "name")) == (3, 11)
    assert source.value_at(("tools", 0, "input_schema", "type")) == (4, 26)
    assert source.key_at(("tools", 0)) == (3, 5)  # a list item: where its value starts


def test_unknown_paths_fall_back_to_the_nearest_ancestor() -> None:
    source = load("a:\n  b: {c: 1}\n").source_map
    assert source.value_at(("a", "b", "missing", 3)) == (2, 6)
    assert SourceMap().value_at(("x",)) == (1, 1)


def test_yaml_12_scalars_become_json_values() -> None:
    loaded = load("a: [1, 0x1F, 1_000, 1.5, 1e3, true, null, ~, '', 12:30, on]\n")
    assert loaded.data == {"a": [1, 31, 1000, 1.5, 1000.0, True, None, None, "", "12:30", "on"]}


def test_each_duplicate_key_is_reported_at_its_own_line() -> None:
    loaded = load("a: 1\nb:\n  c: 1\n  c: 2\na: 3\n")
    assert where(loaded) == [(4, 3, "error"), (5, 1, "error")]
    assert "duplicate key 'c' (first defined at line 3)" in loaded.diagnostics[0].message
    assert loaded.data == {"a": 1, "b": {"c": 1}}  # the first one is kept


def test_every_tab_in_indentation_is_reported() -> None:
    loaded = load("a:\n\t- b\nc:\n  \td\n")
    assert loaded.data is None
    assert where(loaded) == [(2, 1, "error"), (4, 3, "error")]
    assert all("tab character in indentation" in d.message for d in loaded.diagnostics)


def test_tabs_that_yaml_allows_are_not_reported() -> None:
    loaded = load('a: [1,\n\t2]\nb: "x\n\ty"\n')
    assert loaded.diagnostics == []
    assert loaded.data == {"a": [1, 2], "b": "x y"}


@pytest.mark.parametrize("text", ["d: 2024-01-01\n", "d: 2024-01-01T10:00:00Z\n"])
def test_unquoted_dates_are_errors(text: str) -> None:
    diagnostic = only(load(text))
    value = text[3:-1]
    assert diagnostic.message == f"unquoted date; quote it: '{value}'"
    assert (diagnostic.line, diagnostic.col, diagnostic.path) == (1, 4, "d")


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("1", "a number"),
        ("1.5", "a number"),
        ("true", "a boolean"),
        ("null", "null"),
        ("~", "null"),
        ("2024-01-01", "a date"),
    ],
)
def test_non_string_keys_are_errors_with_a_quoting_hint(key: str, kind: str) -> None:
    loaded = load(f"ok: 1\n{key}: x\n")
    diagnostic = only(loaded)
    assert (diagnostic.line, diagnostic.col) == (2, 1)
    assert f"read as {kind}, not a string; quote it: '{key}'" in diagnostic.message
    assert loaded.data == {"ok": 1, key: "x"}  # kept as text so validation can go on


def test_complex_keys_are_errors() -> None:
    assert "a key must be a string" in only(load("? [a, b]\n: 1\n")).message


@pytest.mark.parametrize("text", [".inf", "-.Inf", ".nan"])
def test_non_finite_numbers_are_errors(text: str) -> None:
    assert "is not a JSON number" in only(load(f"num: {text}\n")).message


@pytest.mark.parametrize("text", ["!!binary aGk=", "!!set {a}", "!custom x", "!!omap [a: 1]"])
def test_tags_outside_json_are_errors(text: str) -> None:
    assert "is not supported" in load(f"v: {text}\n").diagnostics[0].message


def test_a_mismatched_explicit_tag_is_an_error() -> None:
    assert only(load("v: !!int abc\n")).message == "'abc' is not a valid !!int"


def test_merge_keys_are_supported() -> None:
    loaded = load("base: &b {p: 1, q: 1}\nm:\n  <<: *b\n  q: 2\n")
    assert loaded.diagnostics == []
    assert loaded.data["m"] == {"q": 2, "p": 1}  # keys written in the mapping win
    assert loaded.source_map.key_at(("m", "p")) == (3, 3)  # the merge that brought it


def test_merge_of_a_list_of_mappings_prefers_the_first() -> None:
    loaded = load("a: &a {k: 1}\nb: &b {k: 2, j: 2}\nm:\n  <<: [*a, *b]\n")
    assert loaded.data["m"] == {"k": 1, "j": 2}


def test_merge_of_a_scalar_is_an_error() -> None:
    assert "'<<' merge takes a mapping" in only(load("m:\n  <<: 3\n")).message


def test_aliases_share_the_anchor_value() -> None:
    loaded = load("s: &s {type: string}\nt: *s\n")
    assert loaded.data == {"s": {"type": "string"}, "t": {"type": "string"}}
    assert loaded.source_map.value_at(("t", "type")) == (2, 1)  # the alias's key


def test_recursive_alias_is_an_error_not_a_hang() -> None:
    loaded = load("a: &x\n  b: *x\n")
    diagnostic = only(loaded)
    assert "recursive alias" in diagnostic.message
    assert (diagnostic.line, diagnostic.col, diagnostic.path) == (2, 3, "a.b")
    assert loaded.data == {"a": {"b": None}}


def test_many_aliases_do_not_explode() -> None:
    # Nine levels of nine aliases: 9**9 values if expanded; shared here.
    lines = ["a0: &a0 [x]"] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)
    ]
    loaded = load("\n".join(lines) + "\n")
    assert loaded.diagnostics == []


@pytest.mark.parametrize("value", ["yes", "No", "ON", "off", "y", "N"])
def test_yaml_11_booleans_are_warnings(value: str) -> None:
    loaded = load(f"{value}: {value}\nq: '{value}'\n")
    assert [d.level for d in loaded.diagnostics] == ["warning", "warning"]
    assert loaded.data == {value: value, "q": value}


def test_quoted_yaml_11_booleans_are_fine() -> None:
    assert load("'on': \"yes\"\n").diagnostics == []


def test_syntax_error_is_one_diagnostic_at_the_problem() -> None:
    diagnostic = only(load("a: 'x\nb: 1\n"))
    assert diagnostic.message.startswith("YAML syntax error: ")
    assert "started at line 1" in diagnostic.message
    assert diagnostic.line == 3


def test_several_documents_are_refused() -> None:
    message = only(load("a: 1\n---\nb: 2\n")).message
    assert message == (
        "YAML syntax error: expected a single document in the stream, but found another document"
    )


def test_yaml_that_only_libyaml_misreads_still_loads() -> None:
    assert load("a: [12:30, 2024-01-01T10:00:00Z]\n").data == {
        "a": ["12:30", "2024-01-01T10:00:00Z"]
    }


def test_control_characters_are_located() -> None:
    diagnostic = only(load("a: 1\nb: \x01\n"))
    assert (diagnostic.line, diagnostic.col) == (2, 4)
    assert "control character" in diagnostic.message


@pytest.mark.parametrize("text", ["", "# just a comment\n", "\n\n"])
def test_an_empty_document_is_a_diagnostic(text: str) -> None:
    loaded = load(text)
    assert loaded.data is None
    assert "the manifest is empty" in only(loaded).message


@pytest.mark.parametrize(
    ("text", "kind"), [("- a\n", "a list"), ("just text\n", "a string"), ("42\n", "a int")]
)
def test_a_non_mapping_top_level_is_a_diagnostic(text: str, kind: str) -> None:
    loaded = load(text)
    assert loaded.data is None
    assert only(loaded).message == f"the manifest must be a mapping of keys, not {kind}"


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ((), ""),
        (("tools", 2, "input_schema", "type"), "tools[2].input_schema.type"),
        (("p", "warehouse.zone"), 'p["warehouse.zone"]'),
        (("p", "$etag", "@x", "item-count"), "p.$etag.@x.item-count"),
        ((0, "a b"), '[0]["a b"]'),
        (("",), '[""]'),
    ],
)
def test_format_path(path: tuple[str | int, ...], text: str) -> None:
    assert format_path(path) == text


YAMLISH = st.text(
    alphabet=st.sampled_from([*"abc:-_ \t\n'\"{}[],#&*!|>?%@`~0129.<=\\", "\u00e9", "\x00"]),
    max_size=200,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(YAMLISH)
def test_any_text_gives_data_or_diagnostics_never_an_exception(text: str) -> None:
    loaded = load(text)
    assert loaded.data is not None or loaded.diagnostics
    for diagnostic in loaded.diagnostics:
        assert diagnostic.line >= 1 and diagnostic.col >= 1


def test_yaml_problems_inside_a_tool_name_the_tool() -> None:
    text = (
        "name: x\nversion: '1'\ntools:\n  - name: invoices.render\n    description: d\n"
        "    input_schema: {type: object, properties: {a: {}, a: {}}}\n"
        "  - description: no name yet\n    input_schema: {type: object, title: 2024-01-01}\n"
    )
    _, diagnostics = check_text(text, "m.yaml")
    assert [(d.line, d.path) for d in diagnostics] == [
        (6, "tools[0] (invoices.render).input_schema.properties.a"),
        (7, "tools[1]"),  # a tool without a name is known by its index alone
        (8, "tools[1].input_schema.title"),
    ]


def test_a_very_long_tool_name_is_shortened_in_diagnostics() -> None:
    name = "x" * 200
    text = f"name: x\nversion: '1'\ntools:\n  - name: {name}\n    input_schema: {{type: object}}\n"
    _, diagnostics = check_text(text, "m.yaml")
    assert {d.path for d in diagnostics} == {
        f"tools[0] ({'x' * 59}…)",
        f"tools[0] ({'x' * 59}…).name",
    }
