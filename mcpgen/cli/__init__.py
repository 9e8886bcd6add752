"""The `mcpgen` command line: a module per command, one place that maps errors to exit codes."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from mcpgen.errors import McpgenError


class _Boundary(TyperGroup):
    """The single error → exit-code boundary, inside the app so that the console script,
    `python -m mcpgen` and in-process runs (`typer.testing.CliRunner`) behave the same.

    Click handles usage errors (exit 2), `typer.Exit` and Ctrl-C itself; mcpgen's own
    errors are printed here, without a traceback.
    """

    def invoke(self, ctx: Any) -> Any:  # click's Context, which typer vendors privately
        try:
            return super().invoke(ctx)
        except McpgenError as exc:
            from mcpgen.cli.present import print_error

            print_error(err, exc)
            raise typer.Exit(exc.exit_code) from None


app = typer.Typer(
    cls=_Boundary,
    name="mcpgen",
    help="Turn a YAML manifest of MCP tools into a complete, tested MCP server project.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # help paragraphs reflow; blank lines separate them
)

# Messages go to stderr; stdout carries only what a command is asked to print
# (the schema, a snippet, a diff).
err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)


def _show_version(value: bool) -> None:
    if value:
        from mcpgen import __version__

        out.print(f"mcpgen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Turn a YAML manifest of MCP tools into a complete, tested MCP server project."""


_registered = False


def command_line() -> typer.Typer:
    """The app with every command registered (once)."""
    global _registered  # noqa: PLW0603  # registration must happen after this module loads
    if not _registered:
        # Imported here so that each command module can import `app`, `err` and `out` from
        # this one.
        from mcpgen.cli import add, bundle, check, config, doctor, generate, manifest, new, update

        for module in (manifest, new, generate, check, add, update, config, doctor, bundle):
            module.register(app)
        _registered = True
    return app


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script and `python -m mcpgen`."""
    command_line()(args=argv, standalone_mode=True)
