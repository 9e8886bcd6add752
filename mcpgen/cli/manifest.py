"""`mcpgen validate` and `mcpgen schema`: the manifest commands, which never write a file."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from mcpgen.errors import Diagnostic


def register(app: typer.Typer) -> None:
    """Add the manifest commands to the `mcpgen` app."""
    app.command("validate")(validate)
    app.command("schema")(schema)


def validate(
    target: Annotated[
        Path,
        typer.Argument(
            help="The project directory holding mcpgen.yaml, or the manifest file itself.",
            show_default=False,
        ),
    ] = Path("."),
    strict: Annotated[
        bool, typer.Option("--strict", help="Fail on warnings too (lints included).")
    ] = False,
) -> None:
    """Check a manifest and print every problem as `file:line:col: path: message`, then the
    lints: what makes tools hard for a model to use (warnings; errors with `--strict`)."""
    from mcpgen.cli import plain_line
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.errors import ManifestInvalid
    from mcpgen.manifest import check_manifest, display_name

    path = find_project_manifest(target)
    manifest, diagnostics = check_manifest(path)
    if manifest is None:
        raise ManifestInvalid(diagnostics)  # printed, with the summary, by mcpgen.cli.main
    diagnostics = sorted([*diagnostics, *_publishing_diagnostics(path), *_lints(path)])
    if strict and diagnostics:
        raise ManifestInvalid([dataclasses.replace(d, level="error") for d in diagnostics])
    for diagnostic in diagnostics:  # warnings only
        plain_line(str(diagnostic), fg="yellow")
    count = len(manifest.tools)
    noun = "tool" if count == 1 else "tools"
    plain_line(f"{display_name(path)}: valid ({count} {noun})", fg="green")


def _lints(path: Path) -> list[Diagnostic]:
    """What makes the tools hard for a model to use (`mcpgen.manifest.lints`)."""
    from mcpgen.manifest import display_name
    from mcpgen.manifest.lints import lint_findings
    from mcpgen.manifest.load import load_yaml
    from mcpgen.manifest.validate import to_diagnostics, with_tool_names

    file = display_name(path)
    try:
        loaded = load_yaml(path.read_bytes().decode("utf-8-sig"), file)
    except (OSError, UnicodeDecodeError):  # changed since it was validated: nothing to add
        return []
    found = to_diagnostics(lint_findings(loaded.data), loaded.source_map, file)
    return with_tool_names(found, loaded.data)


def _publishing_diagnostics(path: Path) -> list[Diagnostic]:
    """What the MCP Registry will check beyond server.json itself (its README line), at the
    manifest's `publish` key. Only here: `generate` does not read README.md."""
    from mcpgen.manifest import display_name
    from mcpgen.manifest.load import load_yaml
    from mcpgen.manifest.validate import to_diagnostics
    from mcpgen.render.server_json import ownership_findings

    file = display_name(path)
    try:
        loaded = load_yaml(path.read_bytes().decode("utf-8-sig"), file)
    except (OSError, UnicodeDecodeError):  # changed since it was validated: nothing to add
        return []
    findings = ownership_findings(loaded.data, path.parent)
    return to_diagnostics(findings, loaded.source_map, file) if findings else []


def schema() -> None:
    """Print the JSON Schema of mcpgen.yaml, for editors and other tools."""
    import json

    from mcpgen.cli import out
    from mcpgen.manifest import manifest_json_schema

    out.print(json.dumps(manifest_json_schema(), indent=2, ensure_ascii=False), markup=False)
