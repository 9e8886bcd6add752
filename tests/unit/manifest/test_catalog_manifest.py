"""Resources, resource templates and prompts in the manifest: loading and located errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcpgen.manifest import check_manifest, check_text
from mcpgen.manifest.catalog_checks import template_variables

HEAD = "name: demo\nversion: 0.1.0\ntools: []\n"

# What a server answered to resources/list, resources/templates/list and prompts/list.
RESOURCES_LIST = {
    "resources": [
        {
            "uri": "test://static-text",
            "name": "static-text",
            "title": "Static Text Resource",
            "description": "A static text resource for testing",
            "mimeType": "text/plain",
        }
    ]
}
TEMPLATES_LIST = {
    "resourceTemplates": [
        {"uriTemplate": "test://template/{id}/data", "name": "template", "mimeType": "text/plain"}
    ]
}
PROMPTS_LIST = {
    "prompts": [
        {
            "name": "test_prompt_with_arguments",
            "description": "A prompt with arguments",
            "arguments": [
                {"name": "arg1", "description": "First", "required": True},
                {"name": "arg2", "description": "Second", "required": True},
            ],
        }
    ]
}


def errors(text: str, root: Path | None = None) -> list[str]:
    manifest, diagnostics = check_text(HEAD + text, "mcpgen.yaml", root)
    found = [str(d) for d in diagnostics if d.level == "error"]
    assert (manifest is None) == bool(found)
    return found


def test_pasted_list_answers_load_unchanged() -> None:
    text = ""  # JSON is YAML: each answer's array is pasted as is
    for answer in (RESOURCES_LIST, TEMPLATES_LIST, PROMPTS_LIST):
        text += f"{next(iter(answer))}: {json.dumps(next(iter(answer.values())))}\n"
    manifest, diagnostics = check_text(HEAD + text, "mcpgen.yaml")
    assert manifest is not None, diagnostics
    assert [r.wire() for r in manifest.resources] == RESOURCES_LIST["resources"]
    assert [t.wire() for t in manifest.resource_templates] == TEMPLATES_LIST["resourceTemplates"]
    assert [p.wire() for p in manifest.prompts] == PROMPTS_LIST["prompts"]
    assert manifest.resources[0].has_handler and manifest.prompts[0].has_handler


def test_snake_case_keys_and_static_contents() -> None:
    manifest, _ = check_text(
        HEAD + "resources:\n  - {uri: 'config://app', name: settings, mime_type: application/json,"
        " text: '{}', subscribe: true}\n"
        + "resource_templates:\n  - {uri_template: 'notes://{folder}/{id}', name: note,"
        " parameters: {id: {type: integer}}, completions: {folder: [inbox, archive]}}\n"
        + "prompts:\n  - {name: hi, arguments: [{name: who, completions: [ann]}],"
        " template: 'Hello {who}'}\n",
        "mcpgen.yaml",
    )
    assert manifest is not None
    resource, template, prompt = (
        manifest.resources[0],
        manifest.resource_templates[0],
        manifest.prompts[0],
    )
    assert resource.wire()["mimeType"] == "application/json" and resource.subscribe
    assert not resource.has_handler and resource.text == "{}"
    assert template.parameters == {"id": {"type": "integer"}}
    assert template.completions == {"folder": ("inbox", "archive")}
    assert prompt.template == "Hello {who}" and prompt.arguments[0].completions == ("ann",)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "resources:\n  - {uri: a://x, name: r, text: a}\n  - {uri: a://x, name: r, text: b}\n",
            [
                "mcpgen.yaml:6:11: resources[1].uri: duplicate resource URI 'a://x' "
                "(also resources[0])",
                "mcpgen.yaml:6:24: resources[1].name: duplicate resource name 'r' "
                "(also resources[0])",
            ],
        ),
        (
            "resources:\n  - {uri: nouri, name: r, mimeType: plain}\n",
            [
                "mcpgen.yaml:5:11: resources[0].uri: 'nouri' is not a URI: it needs a scheme",
                "mcpgen.yaml:5:37: resources[0].mimeType: 'plain' is not a MIME type "
                "(type/subtype)",
            ],
        ),
        (
            "resources:\n  - {uri: a://x, name: r, file: ../secret}\n",
            [
                "mcpgen.yaml:5:33: resources[0].file: the file must be a path inside the "
                "project, not a path with `..`, `.` or an empty part"
            ],
        ),
        (
            "resource_templates:\n  - {uri_template: 'n://{a}/{b', name: t}\n",
            [
                "mcpgen.yaml:5:20: resource_templates[0].uri_template: the URI template has an "
                "unmatched '{' or '}'"
            ],
        ),
        (
            "resource_templates:\n  - {uri_template: 'n://{a}', name: t,"
            " parameters: {b: {type: string}}}\n",
            [
                "mcpgen.yaml:5:53: resource_templates[0].parameters.b: 'b' is not a variable "
                "of 'n://{a}' (a)"
            ],
        ),
        (
            "prompts:\n  - {name: p, arguments: [{name: a}, {name: a}], template: '{a} {b}'}\n",
            [
                "mcpgen.yaml:5:45: prompts[0].arguments[1].name: duplicate argument name 'a'",
                "mcpgen.yaml:5:60: prompts[0].template: the placeholder {b} names no argument "
                "(a, a)",
            ],
        ),
        (
            "prompts:\n  - {name: p, template: 'a { b'}\n",
            [
                "mcpgen.yaml:5:25: prompts[0].template: the template is not a format string "
                "(expected '}' before end of string); write '{{' for a brace"
            ],
        ),
        (
            "resources:\n  - {uri: a://x, name: r, text: a, file: f}\n",
            [
                "mcpgen.yaml:5:36: resources[0].file: a resource has static `text` or a "
                "`file`, not both"
            ],
        ),
    ],
)
def test_located_errors(text: str, expected: list[str]) -> None:
    assert errors(text) == expected


def test_handler_module_shared_with_a_tool_is_refused() -> None:
    text = (
        "name: demo\nversion: 0.1.0\n"
        "tools:\n  - {name: note, inputSchema: {type: object}}\n"
        "prompts:\n  - {name: note}\n"
    )
    _, diagnostics = check_text(text, "mcpgen.yaml")
    assert [str(d) for d in diagnostics if d.level == "error"] == [
        "mcpgen.yaml:6:12: prompts[0].name: its handler module 'handlers/note.py' is also "
        "tools[0]'s; give one of them a `python_name:`"
    ]


def test_a_static_prompt_or_resource_needs_no_handler_module() -> None:
    text = (
        "name: demo\nversion: 0.1.0\n"
        "tools:\n  - {name: note, inputSchema: {type: object}}\n"
        "prompts:\n  - {name: note, template: hi}\n"
    )
    assert check_text(text, "mcpgen.yaml")[0] is not None


def test_files_must_exist_and_are_read(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "logo.png").write_bytes(b"\x89PNG\x00")
    (tmp_path / "mcpgen.yaml").write_text(
        HEAD
        + "resources:\n  - {uri: 'a://logo', name: logo, file: data/logo.png}\n"
        + "  - {uri: 'a://gone', name: gone, file: data/gone.txt}\n",
        encoding="utf-8",
    )
    manifest, diagnostics = check_manifest(tmp_path / "mcpgen.yaml")
    assert manifest is None
    assert [d.message for d in diagnostics] == [
        "no file 'data/gone.txt' in the project (a regular file, next to mcpgen.yaml)"
    ]
    text = (tmp_path / "mcpgen.yaml").read_text(encoding="utf-8")
    (tmp_path / "mcpgen.yaml").write_text(text.rsplit("  - {uri: 'a://gone'", 1)[0])
    manifest, _ = check_manifest(tmp_path / "mcpgen.yaml")
    assert manifest is not None and manifest.resources[0].content == b"\x89PNG\x00"


def test_a_symlinked_folder_leading_out_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    project = tmp_path / "project"
    project.mkdir()
    (project / "data").symlink_to(outside)
    (project / "mcpgen.yaml").write_text(
        HEAD + "resources:\n  - {uri: 'a://s', name: s, file: data/secret.txt}\n"
    )
    manifest, diagnostics = check_manifest(project / "mcpgen.yaml")
    assert manifest is None
    assert "outside the project" in diagnostics[0].message


def test_template_variables_follow_rfc_6570() -> None:
    assert template_variables("a://{x}/{+path}{?q,page:3}{&list*}") == (
        ["x", "path", "q", "page", "list"],
        None,
    )
    assert template_variables("a://{x y}")[1] == "has an invalid variable 'x y' in '{x y}'"


def warnings(text: str, root: Path | None = None) -> list[str]:
    _, diagnostics = check_text(HEAD + text, "mcpgen.yaml", root)
    return [str(d) for d in diagnostics if d.level == "warning"]


def test_ambiguous_templates_are_warned_about_where_they_are() -> None:
    text = (
        "resource_templates:\n"
        "  - {uri_template: 'tree://{+a}/{+b}/{+c}', name: tree}\n"
        "  - {uri_template: 'pair://{a}{b}', name: pair}\n"
        "  - {uri_template: 'files://{name}.{ext}', name: files}\n"
        "  - {uri_template: 'notes://{folder}/{id}{?q,page}', name: notes}\n"
        "  - {uri_template: 'docs://{+path}{.ext}', name: docs}\n"
    )
    assert warnings(text) == [
        "mcpgen.yaml:5:20: resource_templates[0].uri_template: warning: the URI template is "
        "ambiguous: {a}, {b}, {c} may each hold '/', so which part of a URI goes to which "
        "is a guess (the server gives the first as much as it can); put a literal between "
        "them or make one a plain {var}",
        "mcpgen.yaml:6:20: resource_templates[1].uri_template: warning: the URI template is "
        "ambiguous: {a} and {b} have nothing between them, so which part of a URI goes to "
        "which is a guess (the server gives the first as much as it can); put a literal "
        "between them or make one a plain {var}",
    ]
    assert errors(text) == []


def test_a_query_expression_must_come_last() -> None:
    assert errors("resource_templates:\n  - {uri_template: 's://{?q}/{x}', name: t}\n") == [
        "mcpgen.yaml:5:20: resource_templates[0].uri_template: a {?...} or {&...} expression "
        "must come last in the URI template"
    ]


def test_raw_variables_are_variables_of_the_template() -> None:
    text = "resource_templates:\n  - {uri_template: 'git://{+range}', name: t, raw: [range, x]}\n"
    assert errors(text) == [
        "mcpgen.yaml:5:60: resource_templates[0].raw[1]: 'x' is not a variable of the URI template"
    ]
    manifest, _ = check_text(HEAD + text.replace(", x]", "]"), "mcpgen.yaml")
    assert manifest is not None and manifest.resource_templates[0].raw == ("range",)


def test_a_file_resource_over_1_mib_is_warned_about(tmp_path: Path) -> None:
    (tmp_path / "big.bin").write_bytes(b"\0" * (1024 * 1024 + 1))
    (tmp_path / "small.txt").write_text("s")
    text = (
        "resources:\n  - {uri: 'a://big', name: big, file: big.bin}\n"
        "  - {uri: 'a://small', name: small, file: small.txt}\n"
    )
    assert warnings(text, tmp_path) == [
        "mcpgen.yaml:5:39: resources[0].file: warning: the file is 1048577 bytes: it is built "
        "into the server and sent whole on every read (over the server's --max-result-bytes it is "
        "refused); serve a large file from a handler, or a resource link to it"
    ]


@pytest.mark.parametrize(
    ("variable", "problem"),
    [
        ("a.b", "it must be a Python identifier"),
        ("a%20b", "it must be a Python identifier"),
        ("class", "it must not be a Python keyword"),
        ("ctx", "`ctx` is the context's parameter"),
    ],
)
def test_a_template_variable_is_a_handler_parameter(variable: str, problem: str) -> None:
    text = f"resource_templates:\n  - {{uri_template: 'x://{{{variable}}}', name: t}}\n"
    assert errors(text) == [
        f"mcpgen.yaml:5:20: resource_templates[0].uri_template: the variable {{{variable}}} "
        f"is passed to the handler by name: {problem}"
    ]


def test_a_prompt_handler_argument_is_a_parameter() -> None:
    text = "prompts:\n  - {name: p, arguments: [{name: class}, {name: ctx}]}\n"
    assert errors(text) == [
        "mcpgen.yaml:5:34: prompts[0].arguments[0].name: the argument 'class' is passed to "
        "the handler by name: it must not be a Python keyword",
        "mcpgen.yaml:5:49: prompts[0].arguments[1].name: the argument 'ctx' is passed to "
        "the handler by name: `ctx` is the context's parameter",
    ]
    assert (
        errors("prompts:\n  - {name: p, arguments: [{name: class}], template: '{class}'}\n") == []
    )
