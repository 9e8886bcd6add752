"""The `mcpgen` command line: a module per command, one place that maps errors to exit codes."""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from mcpgen.errors import McpgenError

if TYPE_CHECKING:
    from rich.console import Console

    # Messages go to stderr; stdout carries only what a command is asked to print
    # (the schema, a snippet, a diff). Made on first use, by `__getattr__` below.
    err: Console
    out: Console


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
            from mcpgen.cli import err
            from mcpgen.cli.present import print_error

            print_error(err, exc)
            raise typer.Exit(exc.exit_code) from None


def __getattr__(name: str) -> Console:
    """`err` and `out`, the rich consoles, made when a command first prints through them:
    importing rich takes about 0.02 s, and `mcpgen validate` of a sound manifest prints one
    line without it."""
    if name not in ("err", "out"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from rich.console import Console

    consoles = {
        "err": Console(stderr=True, highlight=False, soft_wrap=True),
        "out": Console(highlight=False, soft_wrap=True),
    }
    globals().update(consoles)
    return consoles[name]


def plain_line(text: str, *, fg: str | None = None) -> None:
    """One line on stderr, coloured where rich would colour it, printed by click (which Typer
    has loaded already) so that a command printing nothing else need not import rich."""
    environ = os.environ
    color: bool | None = None  # click's own test: colours on a terminal only
    if environ.get("FORCE_COLOR"):
        color = True
    if environ.get("NO_COLOR") or environ.get("TERM") in ("dumb", "unknown"):
        color = False
    typer.secho(text, fg=fg, err=True, color=color)


def _show_version(value: bool) -> None:
    if value:
        from mcpgen import __version__
        from mcpgen.cli import out

        out.print(f"mcpgen {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Turn a YAML manifest of MCP tools into a complete, tested MCP server project."""


# The module that registers each command, in registration order (the order of
# `mcpgen --help`). A run of one command imports and registers its own module only: the
# others would cost its start-up time and nothing else. --help, --version or an unknown
# command (for its "did you mean") get them all.
COMMAND_MODULES = {
    "validate": "manifest",
    "schema": "manifest",
    "new": "new",
    "generate": "generate",
    "check": "check",
    "add": "add",
    "import": "import_openapi",
    "update": "update",
    "config": "config",
    "hosts": "config",
    "doctor": "doctor",
    "bundle": "bundle",
    "diff": "diff",
    "call": "call",
    "dev": "dev",
}
_apps: dict[str | None, typer.Typer] = {}


def command_line(command: str | None = None) -> typer.Typer:
    """The app with every command registered, or, for a known `command`, the commands of
    its module only (made once each)."""
    module = COMMAND_MODULES.get(command) if command else None
    if module not in _apps:
        app = typer.Typer(
            cls=_Boundary,
            name="mcpgen",
            help="Turn a YAML manifest of MCP tools into a complete, tested MCP server project.",
            no_args_is_help=True,
            add_completion=False,
            pretty_exceptions_enable=False,
            rich_markup_mode="markdown",  # help paragraphs reflow; blank lines separate them
        )
        app.callback()(_root)
        # Imported here so that each command module can import `err`, `out` and the helpers
        # from this one.
        for name in [module] if module else dict.fromkeys(COMMAND_MODULES.values()):
            importlib.import_module(f"mcpgen.cli.{name}").register(app)
        _apps[module] = app
    return _apps[module]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script and `python -m mcpgen`."""
    args = sys.argv[1:] if argv is None else argv
    command_line(args[0] if args else None)(args=argv, standalone_mode=True)
