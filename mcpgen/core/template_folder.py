"""Where mcpgen's templates live: the one place that knows the `templates/` folder."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def templates_root() -> Path:
    """`templates/` inside the installed wheel, or at the top of a source checkout."""
    package_dir = Path(__file__).resolve().parents[1]  # mcpgen/
    for candidate in (package_dir / "templates", package_dir.parent / "templates"):
        if (candidate / "generated").is_dir():
            return candidate
    raise FileNotFoundError("mcpgen's templates/ folder is missing from this installation")
