"""The `mcpgen` command line: a module per command, one place that maps errors to exit codes."""

from __future__ import annotations

import sys
from collections.abc import Iterable

import typer
from rich.console import Console

from mcpgen.errors import Diagnostic, ManifestInvalid, McpgenError

app = typer.Typer(
    name="mcpgen",
    help="Turn a YAML manifest of MCP tools into a complete, tested MCP server project.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Messages go to stderr; stdout carries only what a command is asked to print
# (the schema, a snippet, a diff).
err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)


def print_diagnostics(diagnostics: Iterable[Diagnostic]) -> None:
    """Print diagnostics one per line, `file:line:col: path: message`, errors in red."""
    for diagnostic in diagnostics:
        style = "red" if diagnostic.level == "error" else "yellow"
        err.print(str(diagnostic), style=style, markup=False)


def _register() -> None:
    # Imported here so that each command module can import `app`, `err` and `out` from this one.
    from mcpgen.cli import add, check, config, doctor, generate, manifest, new, update

    for module in (manifest, new, generate, check, add, update, config, doctor):
        module.register(app)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script: the single error → exit-code boundary.

    Click (standalone mode) handles usage errors (exit 2), `typer.Exit` and Ctrl-C itself;
    mcpgen's own errors pass through it and are printed here, without a traceback.
    """
    _register()
    try:
        app(args=argv, standalone_mode=True)
    except ManifestInvalid as exc:
        print_diagnostics(exc.diagnostics)
        err.print(f"error: {exc.message}", style="bold red", markup=False)
        sys.exit(exc.exit_code)
    except McpgenError as exc:
        err.print(f"error: {exc.message}", style="bold red", markup=False)
        sys.exit(exc.exit_code)
