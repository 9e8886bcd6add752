"""`mcpgen validate` prints the lints as warnings; `--strict` makes every warning an error."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli_runner import run_cli

MANIFEST = """\
name: demo
version: 0.1.0
tools:
  - name: search
    description: Find notes.
    input_schema:
      type: object
      properties:
        query: {type: string}
"""
LINT = (
    "mcpgen.yaml:9:9: tools[0] (search).input_schema.properties.query: "
    "argument `query` has no description: the model guesses what to pass"
)


def test_lints_are_warnings(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    done = run_cli("validate", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        LINT.replace("query: ", "query: warning: ", 1),
        "mcpgen.yaml: valid (1 tool)",
    ]


def test_strict_makes_them_errors(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    done = run_cli("validate", "--strict", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        LINT,
        "error: 1 problem in the manifest; nothing was written",
    ]


def test_strict_passes_a_clean_manifest(tmp_path: Path) -> None:
    text = MANIFEST.replace("{type: string}", "{type: string, description: Words}")
    (tmp_path / "mcpgen.yaml").write_text(text, encoding="utf-8")
    assert run_cli("validate", "--strict", cwd=tmp_path).returncode == 0


def test_generate_does_not_print_the_lints(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    done = run_cli("generate", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "no description" not in done.stderr
