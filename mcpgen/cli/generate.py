"""`mcpgen generate [DIR] [--check] [--diff] [--force] [--watch]`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mcpgen.errors import ExitCode, McpgenError

if TYPE_CHECKING:
    from mcpgen.generation import Mode

HELP = """Render the project in DIR from DIR/mcpgen.yaml and keep it in sync.

Prints what changed (tools added, removed, renamed; changes that break handlers) before
writing. Writes all files or none. Handlers and user tests are created once and never
modified; a removed tool's handler is kept and reported as orphaned.

Exit codes: 0 written or up to date; 1 invalid manifest, or --check found stale files;
2 bad command line; 3 a generated file was edited by hand (nothing written; see --force).
"""


def generate(
    directory: Annotated[
        Path, typer.Argument(help="Project directory (or its manifest file).", show_default=False)
    ] = Path("."),
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if generated files are stale.")
    ] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Write nothing; print the diff a run would write.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="Overwrite hand-edited generated files, keeping <file>.orig."),
    ] = False,
    watch: Annotated[
        bool, typer.Option("--watch", help="Regenerate on every save of the manifest.")
    ] = False,
) -> None:
    """One run in the mode the flags choose, or a run per save with `--watch` (help: `HELP`)."""
    from mcpgen.cli import err, out

    if watch and (check or diff):
        raise McpgenError(
            "--watch cannot be combined with --check or --diff", exit_code=ExitCode.USAGE
        )
    from mcpgen.cli.generate_run import generate_and_report
    from mcpgen.cli.project_dir import find_project_manifest

    manifest = find_project_manifest(directory)
    root = manifest.parent
    if watch:
        from mcpgen.cli.watch import watch_project

        watch_project(root, manifest, force=force, console=err)
        return
    mode: Mode = "check" if check else "diff" if diff else "write"
    report = generate_and_report(root, err, force=force, mode=mode, manifest_path=manifest)
    if diff:
        out.print(report.diff(), end="", markup=False, highlight=False)
    if check and report.stale:
        # McpgenError, not typer.Exit: the CLI boundary runs click in non-standalone mode.
        from mcpgen.cli.present import stale_advice

        raise McpgenError(f"generated files are out of date. {stale_advice(report.applied)}")


def register(app: typer.Typer) -> None:
    """Add `mcpgen generate` to the `mcpgen` app."""
    app.command("generate", help=HELP)(generate)
