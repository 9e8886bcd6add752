"""mcpgen: a YAML manifest of MCP tools in, a complete and tested MCP server project out.

The command line (`mcpgen new`, `mcpgen generate`, ...) is the main interface; the same work
is available from Python:

    import mcpgen
    manifest = mcpgen.load_manifest(Path("weather/mcpgen.yaml"))   # raises ManifestInvalid
    report = mcpgen.generate(Path("weather"))                     # check=True writes nothing

Neither prints: results come back as values (`GenerateReport`), failures as `McpgenError`
(`ManifestInvalid` carries every diagnostic); the command line chooses how to show them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from mcpgen.generation.report import GenerateReport
    from mcpgen.manifest.model import Manifest

__all__ = ["__version__", "generate", "load_manifest"]


def load_manifest(path: Path) -> Manifest:
    """Load and validate a manifest; raises `mcpgen.errors.ManifestInvalid` with every problem."""
    from mcpgen.manifest import load_manifest as load

    return load(path)


def generate(root: Path, *, check: bool = False, force: bool = False) -> GenerateReport:
    """Bring the project at `root` in line with its manifest (`check`: write nothing).

    Prints nothing; the report holds the plan summary, every file action, stale files,
    orphaned handlers and an old package left by a `package:` change.
    """
    from mcpgen.generation import generate_project

    return generate_project(root, force=force, mode="check" if check else "write")
