"""Bad manifests through the command line, in process: every problem located, exit 1, no
traceback, no writes.

Each `tests/golden/errors/<case>.yaml` holds one trap (`many_problems.yaml` several); the exact
stderr of `mcpgen validate` is kept in `tests/golden/errors/expected/<case>.txt`. After an
intended change to a message, rewrite the snapshots and review the diff:

    pytest tests/golden/test_errors.py --update-goldens
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.cli_runner import Ran, run_cli
from tests.support.corpus import manifest_files

ERRORS = Path(__file__).parent / "errors"
EXPECTED = ERRORS / "expected"
CASES = sorted(ERRORS.glob("*.yaml"))
TMP = "<tmp>"


def run_mcpgen(*args: str, cwd: Path) -> Ran:
    return run_cli(*args, cwd=cwd, env={"TERM": "dumb"})


def snapshot_of_tree(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
    }


def test_every_trap_named_in_the_issue_has_a_case() -> None:
    names = {case.stem for case in CASES}
    required = {
        "duplicate_key",
        "tab_indentation",
        "unquoted_date",
        "non_string_key",
        "bad_tool_name",
        "duplicate_tool_name",
        "python_name_collision",
        "non_object_input_schema",
        "invalid_schema_keyword",
        "unresolvable_ref",
        "external_ref",
        "invalid_regex",
        "invalid_example",
        "unknown_key_typo",
        "missing_name",
        "yaml_syntax_error",
        "empty_file",
        "version_number",
        "many_problems",
    }
    assert required <= names


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_invalid_manifest_is_reported(case: Path, tmp_path: Path, update_goldens: bool) -> None:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copyfile(case, project / "mcpgen.yaml")
    before = snapshot_of_tree(tmp_path)

    # An absolute path from another directory: the report must name it, normalised here.
    result = run_mcpgen("validate", str(project), cwd=ERRORS)
    stderr = result.stderr.replace(str(tmp_path), TMP)

    assert result.returncode == 1, stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout == ""
    assert snapshot_of_tree(tmp_path) == before, "validate must not write anything"
    for line in stderr.splitlines()[:-1]:
        assert line.startswith(f"{TMP}/project/mcpgen.yaml:"), line
    expected = EXPECTED / f"{case.stem}.txt"
    if update_goldens:
        expected.write_text(stderr, encoding="utf-8")
    assert expected.exists(), f"no snapshot yet: run pytest {__file__} --update-goldens"
    assert stderr == expected.read_text(encoding="utf-8")


def test_relative_path_is_shown_as_given(tmp_path: Path) -> None:
    (tmp_path / "weather").mkdir()
    shutil.copyfile(ERRORS / "version_number.yaml", tmp_path / "weather" / "mcpgen.yaml")
    result = run_mcpgen("validate", "weather", cwd=tmp_path)
    assert result.stderr.startswith("weather/mcpgen.yaml:2:10: version: "), result.stderr


def test_missing_manifest_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    result = run_mcpgen("validate", cwd=tmp_path)
    assert result.returncode == 1
    assert "no mcpgen.yaml in this directory" in result.stderr
    assert "Traceback" not in result.stderr


def test_valid_manifest_exits_zero(tmp_path: Path) -> None:
    result = run_mcpgen("validate", str(manifest_files()[0]), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "valid (" in result.stderr


def test_schema_command_prints_the_packaged_schema(tmp_path: Path) -> None:
    result = run_mcpgen("schema", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert result.stdout == json.dumps(printed, indent=2, ensure_ascii=False) + "\n"
    assert run_mcpgen("schema", cwd=tmp_path).stdout == result.stdout  # stable
