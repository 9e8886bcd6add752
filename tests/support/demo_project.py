"""A real project generated in process from a small two-tool manifest (no venv); the `project`
fixture (tests/conftest.py) hands one to each test."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from mcpgen.generation import generate_project

MANIFEST = """\
# A comment the user wrote.
name: demo
version: 0.1.0
description: Sync test server
tools:
  - name: get_forecast
    description: Forecast for a city
    input_schema:
      type: object
      properties:
        city: {type: string, description: City name}
        days: {type: integer}
      required: [city]
    output_schema:
      type: object
      properties:
        temp: {type: number}
      required: [temp]
    examples:
      - arguments: {city: Paris}
  - name: get_alerts
    description: Alerts for a region
    input_schema:
      type: object
      properties:
        region: {type: string}
"""


class Run:
    """Runs generate on one project and keeps what it printed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.buffer = io.StringIO()

    @property
    def console(self) -> Console:
        return Console(file=self.buffer, width=200, highlight=False, color_system=None)

    def manifest(self, text: str) -> None:
        (self.root / "mcpgen.yaml").write_text(text, encoding="utf-8")

    def edit_manifest(self, old: str, new: str) -> None:
        text = (self.root / "mcpgen.yaml").read_text(encoding="utf-8")
        assert old in text, old
        self.manifest(text.replace(old, new, 1))

    def __call__(self, **options: object):  # type: ignore[no-untyped-def]
        from mcpgen.cli.present import print_report

        self.buffer = io.StringIO()
        report = generate_project(self.root, **options)  # type: ignore[arg-type]
        print_report(self.console, report)  # what the command line would show
        return report

    @property
    def printed(self) -> str:
        return self.buffer.getvalue()


def demo_project(folder: Path) -> Run:
    """`folder/demo` holding MANIFEST, generated once."""
    run = Run(folder / "demo")
    run.root.mkdir()
    run.manifest(MANIFEST)
    run()
    return run
