"""`mcpgen check [DIR]`: the manifest is valid, generated code is current, handlers fit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcpgen.cli import err, print_diagnostics
from mcpgen.errors import McpgenError

HELP = """Check a project without writing anything.

Checks that the manifest is valid (as `mcpgen validate`), that the generated files match it
(as `mcpgen generate --check`), and that every tool has a handler module with a function
`<python_name>(args: <ClassName>Input)` (sync or async), as the dispatcher calls it. Orphaned
handlers (no tool in the manifest uses them) and the generated package left behind by a
`package:` change are listed as warnings.

Exit codes: 0 everything is fine (warnings may be printed); 1 invalid manifest, stale or
hand-edited generated files, or a missing or mismatched handler; 2 bad command line.
"""


def check(
    directory: Annotated[
        Path, typer.Argument(help="Project directory (or its manifest file).", show_default=False)
    ] = Path("."),
) -> None:
    from mcpgen.manifest import check_manifest, find_manifest
    from mcpgen.sync import prepare
    from mcpgen.sync.changes import find_old_packages, find_orphans, orphan_kind
    from mcpgen.sync.engine import project_session
    from mcpgen.sync.handler_check import check_handlers
    from mcpgen.sync.report import print_stale

    path = find_manifest(directory)
    root = path.parent
    # Warnings are shown even for a valid manifest; errors raise ManifestInvalid in prepare().
    _manifest, diagnostics = check_manifest(path)
    if _manifest is not None:
        print_diagnostics(diagnostics)
    with project_session(root, err):  # waits for no one; finishes a killed run's write first
        prepared = prepare(root, manifest_path=path)
    failed = bool(prepared.applied.stale())
    print_stale(err, prepared.applied)
    problems = check_handlers(root, prepared.manifest, prepared.plan)
    for problem in problems:
        err.print(f"handler of {problem.tool}: {problem}", style="red", markup=False)
    if not problems:
        err.print(f"All {len(prepared.manifest.tools)} handlers match the dispatcher.")
    for orphan in find_orphans(root, prepared.manifest, prepared.plan):
        err.print(
            f"warning: orphaned {orphan_kind(orphan)} {orphan}: no tool in the manifest uses it",
            style="yellow",
            markup=False,
        )
    for folder in find_old_packages(root, prepared.manifest):
        err.print(
            f"warning: orphaned generated output {folder}/_generated/: the manifest's package "
            f"is now `{prepared.manifest.package}`",
            style="yellow",
            markup=False,
        )
    if failed or problems:
        what = [
            w
            for w, bad in (("stale generated files", failed), ("handler problems", problems))
            if bad
        ]
        raise McpgenError(f"check failed: {' and '.join(what)}")


def register(app: typer.Typer) -> None:
    app.command("check", help=HELP)(check)
