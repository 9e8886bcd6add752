"""The manifest's `openapi:` sources: imported tools, their env vars, and located problems."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcpgen.errors import Diagnostic
from mcpgen.manifest import check_text
from mcpgen.manifest.model import Manifest, OpenApiSource

SPECS = Path(__file__).parents[1] / "openapi" / "specs"

MANIFEST = """\
name: pets
version: "0.1.0"
tools:
  - name: ping
    description: Answers pong.
    input_schema: {type: object}
openapi:
  - spec: openapi/pets.yaml
    auth: {bearer_env: PETS_TOKEN}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "openapi").mkdir()
    shutil.copy(SPECS / "pets.yaml", tmp_path / "openapi" / "pets.yaml")
    return tmp_path


def _check(project: Path, text: str) -> tuple[Manifest | None, list[Diagnostic]]:
    return check_text(text, "mcpgen.yaml", project)


def _errors(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.level == "error"]


def test_imported_tools_follow_the_written_ones(project: Path) -> None:
    manifest, diagnostics = _check(project, MANIFEST)
    assert manifest is not None, diagnostics
    assert [t.name for t in manifest.tools][:2] == ["ping", "list_pets"]
    assert manifest.tools[0].binding is None and manifest.tools[0].api is None
    listed = manifest.tools[1]
    assert listed.api == "pet" and listed.binding is not None
    assert listed.output_validation == "strict"
    assert manifest.apis == (
        OpenApiSource(
            key="pet",
            spec="openapi/pets.yaml",
            base_url="https://pets.example.com/v1",
            base_url_env="PET_BASE_URL",
            auth={"bearer_env": "PETS_TOKEN"},
        ),
    )
    assert manifest.apis[0].plain()["base_url_env"] == "PET_BASE_URL"


def test_the_sources_env_vars_are_declared(project: Path) -> None:
    manifest, _ = _check(project, MANIFEST)
    assert manifest is not None
    env = {var.name: var for var in manifest.env}
    assert env["PETS_TOKEN"].secret and not env["PETS_TOKEN"].required
    assert env["PET_BASE_URL"].default == "https://pets.example.com/v1"
    assert not env["PET_BASE_URL"].secret


def test_basic_auth_and_passthrough(project: Path) -> None:
    text = MANIFEST.replace("{bearer_env: PETS_TOKEN}", "{basic_env: [PETS_USER, PETS_PASSWORD]}")
    manifest, _ = _check(project, text)
    assert manifest is not None
    assert {v.name for v in manifest.env if v.secret} == {"PETS_USER", "PETS_PASSWORD"}
    manifest, _ = _check(project, MANIFEST.replace("{bearer_env: PETS_TOKEN}", "passthrough"))
    assert manifest is not None and manifest.apis[0].auth == {"passthrough": True}


def test_a_bad_auth_form_is_a_schema_error(project: Path) -> None:
    manifest, diagnostics = _check(project, MANIFEST.replace("bearer_env", "token_env"))
    assert manifest is None
    assert _errors(diagnostics)[0].line == 9


def test_an_override_of_an_unknown_operation_is_located_in_the_manifest(project: Path) -> None:
    text = MANIFEST + "    overrides:\n      listPet: {name: list}\n"
    manifest, diagnostics = _check(project, text)
    assert manifest is None
    (error,) = _errors(diagnostics)
    assert (error.file, error.line, error.col) == ("mcpgen.yaml", 11, 7)
    assert "did you mean 'listPets'" in error.message


def test_an_imported_name_clashing_with_a_written_tool_is_an_error(project: Path) -> None:
    text = MANIFEST.replace("name: ping", "name: list_pets")
    manifest, diagnostics = _check(project, text)
    assert manifest is None
    (error,) = _errors(diagnostics)
    assert (error.line, error.col) == (8, 11)  # the entry's spec
    assert "tools[0]" in error.message and "overrides" in error.message
    renamed = text + "    overrides:\n      listPets: {name: all_pets}\n"
    manifest, diagnostics = _check(project, renamed)
    assert manifest is not None, diagnostics
    assert "all_pets" in [t.name for t in manifest.tools]


def test_an_override_renaming_onto_a_written_tool_points_at_the_override(project: Path) -> None:
    text = MANIFEST + "    overrides:\n      listPets: {name: ping}\n"
    _, diagnostics = _check(project, text)
    (error,) = _errors(diagnostics)
    assert (error.line, error.col) == (11, 24)


@pytest.mark.parametrize("spec", ["../pets.yaml", "/etc/passwd", "openapi/missing.yaml"])
def test_a_spec_outside_the_project_or_missing_is_an_error(project: Path, spec: str) -> None:
    manifest, diagnostics = _check(project, MANIFEST.replace("openapi/pets.yaml", spec))
    assert manifest is None
    (error,) = _errors(diagnostics)
    assert (error.line, error.col) == (8, 11)


def test_a_symlink_out_of_the_project_is_never_read(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("elsewhere") / "secret.yaml"
    outside.write_text("not: read")
    (project / "openapi" / "pets.yaml").unlink()
    (project / "openapi" / "pets.yaml").symlink_to(outside)
    manifest, diagnostics = _check(project, MANIFEST)
    assert manifest is None
    assert "leads out of the project" in _errors(diagnostics)[0].message


def test_problems_in_the_spec_point_into_the_spec(project: Path) -> None:
    spec = project / "openapi" / "pets.yaml"
    spec.write_text(spec.read_text().replace("operationId: deletePet", "operationId: listPets"))
    manifest, diagnostics = _check(project, MANIFEST)
    assert manifest is None
    (error,) = _errors(diagnostics)
    assert error.file == "openapi/pets.yaml"
    assert "listPets" in spec.read_text().splitlines()[error.line - 1]


def test_two_sources_with_the_same_name_are_an_error(project: Path) -> None:
    text = MANIFEST + "  - spec: openapi/pets.yaml\n    include: [deletePet]\n"
    _, diagnostics = _check(project, text)
    assert any("API name 'pet'" in d.message for d in _errors(diagnostics))


def test_a_big_catalog_is_warned_about_with_advice(project: Path) -> None:
    tools = "".join(
        f"  - name: t{i}\n    description: d\n    input_schema: {{type: object}}\n"
        for i in range(130)
    )
    written = MANIFEST.split("openapi:", maxsplit=1)[0]
    text = MANIFEST.replace(written, 'name: pets\nversion: "0.1.0"\ntools:\n' + tools)
    manifest, diagnostics = _check(project, text)
    assert manifest is not None
    warnings = [d for d in diagnostics if "more than hosts use at once" in d.message]
    (warning,) = warnings
    assert "135 tools" in warning.message and "--tags" in warning.message
    assert warning.path == "openapi[0].spec"


def test_without_the_project_folder_the_sources_are_not_read(project: Path) -> None:
    manifest, diagnostics = check_text(MANIFEST, "mcpgen.yaml")
    assert manifest is not None and not _errors(diagnostics)
    assert [t.name for t in manifest.tools] == ["ping"]


def test_imported_names_too_long_for_hosts_get_one_warning_per_host(project: Path) -> None:
    long_name = "list_" + "very_" * 12 + "many_pets"
    text = MANIFEST + f"    overrides:\n      listPets: {{name: {long_name}}}\n"
    manifest, diagnostics = _check(project, text)
    assert manifest is not None
    found = [d for d in diagnostics if "too long" in d.message]
    assert {d.message.split(":")[0] for d in found} == {"all hosts", "claude-code", "cursor"}
    assert all(long_name in d.message and d.path == "openapi[0].spec" for d in found)
