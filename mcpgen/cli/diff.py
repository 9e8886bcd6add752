"""`mcpgen diff [--against REF] [--bump] [DIR]`: what changed for clients since a git ref."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcpgen.errors import McpgenError

HELP = """Compare the client contract of DIR's manifest with the one committed at REF.

Prints one line per change a client of the server may notice, each starting `breaking:`
(an existing client may now fail: a tool, resource, template or prompt removed or renamed
without `renamed_from`, a new required argument, a narrower input, an output field removed
or changed) or `compatible:` (a new tool or optional argument, a wider input, a new output
field, a description, title or annotation change, a rename with `renamed_from`), then
`suggested version: X.Y.Z`: the next major version after REF's for a breaking change (the
next minor below 1.0), the next minor for compatible changes only (the next patch below
1.0), the same version for none. REF is read from git, never checked out.

`--bump` writes the suggested version into mcpgen.yaml (only that value changes) and
regenerates the project, so server.json carries it too.

Exit codes: 0 no breaking change, or the version was raised at least as far as suggested;
1 a breaking change without that bump (or an invalid manifest); 2 bad command line, not a git
repository, an unknown REF, or no manifest at REF.
"""


def diff(
    directory: Annotated[
        Path, typer.Argument(help="Project directory (or its manifest file).", show_default=False)
    ] = Path("."),
    against: Annotated[
        str, typer.Option("--against", metavar="REF", help="Git ref to compare with.")
    ] = "HEAD",
    bump: Annotated[
        bool,
        typer.Option("--bump", help="Write the suggested version into mcpgen.yaml and generate."),
    ] = False,
) -> None:
    """Print the contract changes since REF and the version they call for (help: `HELP`)."""
    from mcpgen.cli import plain_line
    from mcpgen.cli.project_dir import find_project_manifest
    from mcpgen.commands.diff import contract_diff

    manifest = find_project_manifest(directory)
    result = contract_diff(manifest, against)
    for change in result.changes:
        typer.echo(str(change))
    if not result.changes:
        plain_line(f"no change to the client contract since {against}")
    typer.echo(f"suggested version: {result.suggested_version}")
    if bump and result.changes:
        _bump(manifest, result.new_version, result.suggested_version)
        return
    if not result.bumped_enough:
        raise McpgenError(
            f"a change breaks existing clients, and version {result.new_version} is below "
            f"{result.suggested_version}: set `version: {result.suggested_version}` in "
            f"{manifest.name}, or run `mcpgen diff --bump`"
        )


def _bump(manifest: Path, current: str, suggested: str) -> None:
    """Raise `version:` to the suggestion (never lower it) and regenerate the project."""
    from mcpgen.cli import err, plain_line
    from mcpgen.cli.generate_run import generate_and_report
    from mcpgen.commands.diff import bump_version
    from mcpgen.contract.version import reaches

    if reaches(current, suggested):
        plain_line(f"version {current} is already at least {suggested}; nothing to bump")
        return
    if not bump_version(manifest, suggested):
        raise McpgenError(
            f"cannot find a plain `version:` value to edit in {manifest.name}; "
            f"set `version: {suggested}` by hand"
        )
    plain_line(f"version: {current} → {suggested} in {manifest.name}")
    generate_and_report(manifest.parent, err, manifest_path=manifest)


def register(app: typer.Typer) -> None:
    """Add `mcpgen diff` to the `mcpgen` app."""
    app.command("diff", help=HELP)(diff)
