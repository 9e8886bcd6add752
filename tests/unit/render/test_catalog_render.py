"""Rendering resources, templates and prompts: the table, handler stubs, `mcpgen check`."""

from __future__ import annotations

from pathlib import Path

from mcpgen.generation.handler_check import check_handlers, keyword_signature_problem
from mcpgen.manifest import check_text, load_manifest
from mcpgen.manifest.model import Manifest
from mcpgen.render.plan import render_plan

REPO = Path(__file__).resolve().parents[3]
MANIFEST = """\
name: demo
version: 0.1.0
tools: []
resources:
  - {uri: 'a://text', name: text, text: hi}
  - {uri: 'a://live', name: live, description: Live status., subscribe: true}
resource_templates:
  - {uri_template: 'notes://{folder}/{id}', name: note, parameters: {id: {type: integer}}}
prompts:
  - {name: greet, arguments: [{name: who, required: true}], template: 'Hi {who}'}
  - {name: review, arguments: [{name: lang}, {name: code, required: true}]}
"""


def manifest() -> Manifest:
    found, diagnostics = check_text(MANIFEST, "mcpgen.yaml")
    assert found is not None, diagnostics
    return found


def test_a_tools_only_project_has_no_catalog() -> None:
    plan = render_plan(load_manifest(REPO / "examples" / "weather" / "mcpgen.yaml"))
    assert plan.get("src/weather/_generated/catalog_table.py") is None
    assert plan.get("tests/test_catalog_contract.py") is None
    server = plan.get("src/weather/_generated/server.py")
    assert server is not None and "CATALOG" not in server.content


def test_handlers_only_for_entries_without_static_contents() -> None:
    plan = render_plan(manifest())
    handlers = {
        f.path.rsplit("/", 1)[1]: f.content
        for f in plan.by_owner("user")
        if "/handlers/" in f.path and not f.path.endswith("__init__.py")
    }
    assert sorted(handlers) == ["live.py", "note.py", "review.py"]
    assert "def live() -> str:" in handlers["live.py"]
    assert "def note(folder: str, id: int) -> str:" in handlers["note.py"]
    assert "def review(code: str, lang: str | None = None) -> str:" in handlers["review.py"]
    table = plan.get("src/demo/_generated/catalog_table.py")
    assert table is not None
    assert "handler=live_handler,\n            subscribe=True," in table.content
    assert 'template="Hi {who}"' in table.content


def test_check_reports_a_handler_the_server_cannot_call(tmp_path: Path) -> None:
    found = manifest()
    plan = render_plan(found)
    for planned in plan.files:
        (tmp_path / planned.path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / planned.path).write_text(planned.content, encoding="utf-8")
    assert check_handlers(tmp_path, found, plan) == []
    note = tmp_path / "src/demo/handlers/note.py"
    note.write_text(note.read_text().replace("id: int", "ident: int"))
    (problem,) = check_handlers(tmp_path, found, plan)
    assert str(problem) == (
        "src/demo/handlers/note.py: `note` takes `ident`, which the server does not pass; "
        "it calls `note(folder, id)`"
    )


def test_keyword_signatures() -> None:
    passed = ["folder", "id"]
    assert keyword_signature_problem("def n(folder, id, ctx): ...", "n", passed) is None
    assert keyword_signature_problem("async def n(**values): ...", "n", passed) is None
    assert keyword_signature_problem("def n(folder, extra=1, *, id): ...", "n", passed) is None
    assert keyword_signature_problem("def n(folder): ...", "n", passed) == (
        "`n` does not take `id`; the server calls `n(folder, id)`"
    )
    assert keyword_signature_problem("def m(): ...", "n", passed) == (
        "no function `n` (sync or async); the server calls `n(folder, id)`"
    )
