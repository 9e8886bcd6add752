"""The start-up floor for a Typer CLI: one command, nothing else (`python bare_typer.py --help`)."""

import typer

app = typer.Typer()


@app.command()
def hello(name: str = "world") -> None:
    """Say hello."""
    typer.echo(f"hello {name}")


if __name__ == "__main__":
    app()
