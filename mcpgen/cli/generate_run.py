"""One generate run on the command line: the plan printed before the first write, the outcome
after it. `generate`, `generate --watch` and `add` all run generate through here."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from mcpgen.generation import GenerateReport, Mode


def generate_and_report(
    root: Path,
    console: Console,
    *,
    force: bool = False,
    mode: Mode = "write",
    manifest_path: Path | None = None,
) -> GenerateReport:
    """Run generate, printing the plan before the first write and the outcome after it."""
    from mcpgen.cli import present
    from mcpgen.generation import generate_project

    report = generate_project(
        root,
        force=force,
        mode=mode,
        manifest_path=manifest_path,
        on_plan=lambda prepared: present.print_plan(console, prepared, mode),
    )
    present.print_outcome(console, report)
    return report
