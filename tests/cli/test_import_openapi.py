"""`mcpgen import openapi`: new projects, imports into a project, sync with the spec."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.conftest import PING_MANIFEST
from tests.support.cli_runner import run_cli

SPEC = Path(__file__).parents[1] / "unit" / "openapi" / "specs" / "pets.yaml"


def test_outside_a_project_it_creates_one_with_the_spec_copied(tmp_path: Path) -> None:
    done = run_cli("import", "openapi", str(SPEC), "--no-git", "--no-input", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    project = tmp_path / "pet"
    assert (project / "openapi" / "pets.yaml").read_bytes() == SPEC.read_bytes()
    manifest = (project / "mcpgen.yaml").read_text()
    assert "  - spec: openapi/pets.yaml\n    name: pet\n" in manifest
    assert "bearer_env: PET_TOKEN" in manifest  # from the spec's security scheme
    assert "list_pets" in (project / "TOOLS.md").read_text()
    assert not (project / ".git").exists()
    check = run_cli("generate", "--check", str(project))
    assert check.returncode == 0, check.stderr


def test_filters_name_and_base_url_go_into_the_manifest(tmp_path: Path) -> None:
    done = run_cli(
        "import",
        "openapi",
        str(SPEC),
        "--dir",
        str(tmp_path / "zoo"),
        "--name",
        "zoo",
        "--tags",
        "admin",
        "--include",
        "listPets,showPetById",
        "--base-url",
        "http://127.0.0.1:4010",
        "--no-git",
    )
    assert done.returncode == 0, done.stderr
    manifest = (tmp_path / "zoo" / "mcpgen.yaml").read_text()
    assert "base_url: http://127.0.0.1:4010" in manifest
    assert "include:\n    - listPets\n    - showPetById" in manifest
    tools = (tmp_path / "zoo" / "TOOLS.md").read_text()
    assert "delete_pet" in tools and "show_pet_by_id" in tools and "create_pet" not in tools


def test_an_unknown_operation_creates_nothing(tmp_path: Path) -> None:
    done = run_cli("import", "openapi", str(SPEC), "--include", "listPet", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "--include: no operation 'listPet'" in done.stderr
    assert "did you mean 'listPets'" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_swagger_2_is_refused_in_one_line(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text('{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}')
    done = run_cli("import", "openapi", str(old), cwd=tmp_path)
    assert done.returncode == 1
    assert "Swagger 2.0" in done.stderr and "swagger2openapi" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]


def test_inside_a_project_it_adds_the_source_keeping_comments(ping_project: Path) -> None:
    manifest = ping_project / "mcpgen.yaml"
    manifest.write_text("# my server\n" + PING_MANIFEST)
    done = run_cli("import", "openapi", str(SPEC), "--include", "listPets", cwd=ping_project)
    assert done.returncode == 0, done.stderr
    text = manifest.read_text()
    assert text.startswith("# my server\n" + PING_MANIFEST)
    assert "openapi:\n  - spec: openapi/pets.yaml" in text
    assert (ping_project / "openapi" / "pets.yaml").is_file()
    assert (ping_project / "src/demo/handlers/ping.py").is_file()
    assert not (ping_project / "src/demo/handlers/list_pets.py").exists()
    assert "list_pets" in (ping_project / "TOOLS.md").read_text()


def test_inside_a_project_a_clash_changes_nothing(ping_project: Path) -> None:
    manifest = ping_project / "mcpgen.yaml"
    manifest.write_text(PING_MANIFEST.replace("name: ping", "name: list_pets"))
    before = manifest.read_bytes()
    done = run_cli("import", "openapi", str(SPEC), "--dir", str(ping_project))
    assert done.returncode == 1 and "tools[0]" in done.stderr
    assert manifest.read_bytes() == before
    assert not (ping_project / "openapi").exists()


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    done = run_cli("import", "openapi", str(SPEC), "--no-git", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    project = tmp_path / "pet"
    manifest = project / "mcpgen.yaml"
    manifest.write_text(
        manifest.read_text()
        + "    overrides:\n"
        + "      showPetById: {name: get_pet, description: One pet by id.}\n"
    )
    assert run_cli("generate", str(project)).returncode == 0
    return project


def test_a_changed_spec_makes_check_stale_and_the_plan_says_what_changed(imported: Path) -> None:
    spec = imported / "openapi" / "pets.yaml"
    text = spec.read_text()
    # A parameter added, an operation removed, a response field's type changed.
    text = text.replace(
        "        - {name: limit, in: query, schema: {type: integer, maximum: 100}}\n",
        "        - {name: limit, in: query, schema: {type: integer, maximum: 100}}\n"
        "        - {name: sort, in: query, schema: {type: string}}\n",
    )
    start = text.index("    delete:\n      operationId: deletePet")
    end = text.index("  /pets/{petId}/name:")
    text = text[:start] + text[end:]
    text = text.replace(
        "        tag: {type: string, nullable: true}", "        tag: {type: integer}"
    )
    spec.write_text(text)
    stale = run_cli("generate", "--check", str(imported))
    assert stale.returncode == 1, stale.stderr
    done = run_cli("generate", str(imported))
    assert done.returncode == 0, done.stderr
    plan = done.stderr
    assert "delete_pet" in plan
    assert "sort" in plan
    assert "tag" in plan
    manifest = (imported / "mcpgen.yaml").read_text()
    assert "get_pet" in manifest
    tools = (imported / "TOOLS.md").read_text()
    assert "## get_pet" in tools and "One pet by id." in tools and "delete_pet" not in tools
    assert run_cli("generate", "--check", str(imported)).returncode == 0


def test_a_spec_unchanged_is_proven_up_to_date(imported: Path) -> None:
    first = run_cli("generate", "--check", str(imported))
    assert first.returncode == 0, first.stderr
    spec = imported / "openapi" / "pets.yaml"
    spec.write_text(spec.read_text() + "\n# a comment changes nothing\n")
    assert run_cli("generate", "--check", str(imported)).returncode == 0


def test_validate_points_into_the_spec(imported: Path) -> None:
    spec = imported / "openapi" / "pets.yaml"
    spec.write_text(spec.read_text().replace("operationId: deletePet", "operationId: listPets"))
    done = run_cli("validate", str(imported / "mcpgen.yaml"))
    assert done.returncode == 1
    assert "openapi/pets.yaml:" in done.stderr + done.stdout
    shutil.rmtree(imported / "openapi")
    missing = run_cli("validate", str(imported / "mcpgen.yaml"))
    assert missing.returncode == 1 and "does not exist" in missing.stderr + missing.stdout


def test_importing_the_same_api_twice_is_refused(imported: Path) -> None:
    before = (imported / "mcpgen.yaml").read_bytes()
    done = run_cli("import", "openapi", str(SPEC), "--dir", str(imported))
    assert done.returncode == 1 and "already imports openapi/pets.yaml" in done.stderr
    assert (imported / "mcpgen.yaml").read_bytes() == before


def test_a_custom_handler_replaces_the_call_and_is_kept(imported: Path) -> None:
    manifest = imported / "mcpgen.yaml"
    manifest.write_text(manifest.read_text() + "      deletePet: {handler: custom}\n")
    done = run_cli("generate", str(imported))
    assert done.returncode == 0, done.stderr
    handler = imported / "src" / "pet" / "handlers" / "delete_pet.py"
    assert handler.is_file()
    handler.write_text(handler.read_text() + "\n# mine\n")
    spec = imported / "openapi" / "pets.yaml"
    spec.write_text(spec.read_text().replace("summary: List pets", "summary: All the pets"))
    again = run_cli("generate", str(imported))
    assert again.returncode == 0, again.stderr
    assert handler.read_text().endswith("\n# mine\n")
    assert "All the pets" in (imported / "TOOLS.md").read_text()


def test_generate_watch_watches_the_spec(imported: Path) -> None:
    from mcpgen.generation.watch import embedded_files

    watched = embedded_files(imported, imported / "mcpgen.yaml")
    assert imported / "openapi" / "pets.yaml" in watched
