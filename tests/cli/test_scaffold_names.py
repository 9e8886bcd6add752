"""A project keeps the package and script it was scaffolded with: a new `name:` renames the
server only, and a `package:` in the manifest is a deliberate move."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli_runner import Ran, run_cli


def mcpgen(*args: str) -> Ran:
    return run_cli(*args)


def test_renaming_the_server_keeps_package_and_script(tmp_path: Path) -> None:
    root = tmp_path / "s5"
    assert mcpgen("new", "s5", "--dir", str(root), "--no-input", "--no-git").returncode == 0
    manifest = root / "mcpgen.yaml"
    manifest.write_text(manifest.read_text().replace("name: s5", "name: Station Five"))
    done = mcpgen("generate", str(root))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (root / "src").iterdir()) == ["s5"]
    assert 'SERVER_NAME = "Station Five"' in (root / "src/s5/_generated/__init__.py").read_text()
    printed = mcpgen("config", "claude-desktop", str(root))
    assert printed.returncode == 0, printed.stderr
    snippet = json.loads(printed.stdout)
    (entry,) = snippet["mcpServers"].values()
    assert entry["command"].endswith("s5-server") or "s5-server" in entry["args"]


def test_a_hand_edited_models_file_is_refused_not_reused(tmp_path: Path) -> None:
    root = tmp_path / "w"
    assert mcpgen("new", "w", "--dir", str(root), "--no-input", "--no-git").returncode == 0
    models = root / "src/w/_generated/models.py"
    models.write_text(models.read_text() + "\n# my change\n")  # the inputs digest still matches
    done = mcpgen("generate", str(root))
    assert done.returncode == 3, done.stderr
    assert models.read_text().endswith("# my change\n")
