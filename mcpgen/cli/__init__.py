"""The `mcpgen` command line: one module per command, one place that turns errors into exit codes."""

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

# Messages go to stderr; stdout is kept for what a command is asked to print (schema, snippets, diffs).
err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)


def print_diagnostics(diagnostics: Iterable[Diagnostic]) -> None:
    """Print diagnostics one per line, `file:line:col: path: message`, errors in red."""
    for diagnostic in diagnostics:
        style = "red" if diagnostic.level == "error" else "yellow"
        err.print(str(diagnostic), style=style, markup=False)


def _register() -> None:
    # Imported here so that each command module can import `app`, `err` and `out` from this one.
    from mcpgen.cli import generate, manifest, new

    for module in (manifest, new, generate):
        module.register(app)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script: the single error → exit-code boundary."""
    _register()
    try:
        app(args=argv, standalone_mode=False)
    except ManifestInvalid as exc:
        print_diagnostics(exc.diagnostics)
        err.print(f"error: {exc.message}", style="bold red", markup=False)
        sys.exit(exc.exit_code)
    except McpgenError as exc:
        err.print(f"error: {exc.message}", style="bold red", markup=False)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        err.print("aborted", style="red")
        sys.exit(1)
    except KeyboardInterrupt:
        err.print("interrupted", style="red")
        sys.exit(130)
    except Exception as exc:  # click's usage errors arrive here in non-standalone mode
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        raise
