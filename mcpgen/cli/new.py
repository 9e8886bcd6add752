"""`mcpgen new NAME`: scaffold a project, write its manifest, generate, and commit it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from mcpgen.cli import err
from mcpgen.errors import McpgenError

HELP = """Create a new MCP server project.

Without --manifest the project starts from an example weather server (two tools, offline
data) named NAME. With --manifest FILE it starts from that manifest: server, package and
script names come from the manifest, and NAME only names the directory. A manifest with
errors gets them all reported and nothing is created.
"""


def _target_directory(name: str | None, directory: Path | None, default_name: str) -> Path:
    if directory is not None:
        return directory
    return Path(name or default_name)


def _refuse_non_empty(target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise McpgenError(f"'{target}' exists and is not a directory")
    if target.is_dir() and any(target.iterdir()):
        raise McpgenError(f"'{target}' is not empty; choose a new directory (or --dir)")


def _write_manifest(source: Path | str, destination: Path) -> None:
    if isinstance(source, Path):
        shutil.copyfile(source, destination)
    else:
        destination.write_text(source, encoding="utf-8")


def _remove_created(target: Path, created: bool) -> None:
    if created:
        shutil.rmtree(target, ignore_errors=True)
        return
    for child in target.iterdir():  # the directory was there, and empty: empty it again
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def _git_init(target: Path) -> bool:
    """Make the project a git repository with a first commit, unless git is missing or the
    target already lives inside a repository. True when a repository was created."""
    git = shutil.which("git")
    if git is None:
        return False
    inside = subprocess.run(
        [git, "rev-parse", "--is-inside-work-tree"], cwd=target, capture_output=True, check=False
    )
    if inside.returncode == 0:
        return False
    steps = (
        ["init", "--quiet"],
        ["add", "--all"],
        [
            "-c",
            "user.name=mcpgen",
            "-c",
            "user.email=mcpgen@localhost",
            "commit",
            "--quiet",
            "--no-verify",
            "-m",
            "New MCP server project from mcpgen",
        ],
    )
    for step in steps:
        done = subprocess.run([git, *step], cwd=target, capture_output=True, check=False)
        if done.returncode != 0:
            err.print(f"note: git {step[0]} failed; the project is not committed", style="yellow")
            return False
    return True


def new(
    name: Annotated[
        str | None,
        typer.Argument(help="Server name (and directory), e.g. weather.", show_default=False),
    ] = None,
    manifest: Annotated[
        Path | None,
        typer.Option(
            "--manifest",
            "-m",
            help="Start from this mcpgen.yaml instead of the example.",
            exists=False,
            dir_okay=False,
        ),
    ] = None,
    directory: Annotated[
        Path | None, typer.Option("--dir", "-d", help="Create the project here instead of ./NAME.")
    ] = None,
    no_input: Annotated[
        bool, typer.Option("--no-input", help="Never prompt; use defaults for anything not given.")
    ] = False,
    git: Annotated[
        bool, typer.Option(help="Initialise a git repository with a first commit.")
    ] = True,
) -> None:
    from mcpgen.errors import ManifestInvalid, has_errors
    from mcpgen.example import example_manifest_text
    from mcpgen.manifest import check_manifest, check_text
    from mcpgen.scaffold import ScaffoldAnswers, render_scaffold
    from mcpgen.sync import generate_project
    from mcpgen.sync.scaffold_update import record_template

    if manifest is None and name is None:
        if no_input or not sys.stdin.isatty():
            raise McpgenError("give the server a name: `mcpgen new NAME` (or --manifest FILE)")
        name = typer.prompt("Server name", default="weather")
    if name is not None and not Path(name).name.strip():
        raise McpgenError("the server name must not be empty")
    if manifest is not None:
        if not manifest.is_file():
            raise McpgenError(f"'{manifest}' does not exist")
        parsed, diagnostics = check_manifest(manifest)
        source: Path | str = manifest  # copied byte for byte: line endings, BOM, comments
    else:
        assert name is not None
        # `mcpgen new path/to/weather` names the server after the last part.
        source = example_manifest_text(Path(name).name)
        parsed, diagnostics = check_text(source, "mcpgen.yaml")
    if parsed is None or has_errors(diagnostics):
        raise ManifestInvalid(diagnostics)

    target = _target_directory(name, directory, parsed.distribution)
    _refuse_non_empty(target)
    created = not target.exists()
    try:
        target.mkdir(parents=True, exist_ok=True)
        _write_manifest(source, target / "mcpgen.yaml")
        render_scaffold(target, ScaffoldAnswers.from_manifest(parsed, example=manifest is None))
        record_template(target)  # the base `mcpgen update` merges from
        generate_project(target, console=err)
    except BaseException:
        # A half-made project is worse than none: remove what this command created.
        _remove_created(target, created)
        raise
    committed = git and _git_init(target)
    _print_next_steps(target, parsed.script, committed)


def _print_next_steps(target: Path, script: str, committed: bool) -> None:
    err.print(
        f"\n[bold green]Created {target}[/]"
        + (" (git repository, first commit)" if committed else "")
    )
    err.print("Next:", markup=False)
    err.print(f"  cd {target}", markup=False)
    err.print(
        "  python -m venv .venv && . .venv/bin/activate && pip install -e '.[test]'", markup=False
    )
    err.print(f"  pytest && {script}", markup=False)
    err.print("  mcpgen config claude-desktop   # or cline, cursor, vscode, ...", markup=False)


def register(app: typer.Typer) -> None:
    app.command(help=HELP)(new)
