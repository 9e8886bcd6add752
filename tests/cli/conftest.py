"""Fixtures of the command-line tests."""

from __future__ import annotations

from pathlib import Path

import pytest

PING_MANIFEST = """\
name: demo
version: 0.1.0
tools:
  - name: ping
    input_schema: {type: object}
"""


@pytest.fixture
def ping_project(tmp_path: Path) -> Path:
    """A folder holding a one-tool manifest (PING_MANIFEST), not yet generated."""
    (tmp_path / "mcpgen.yaml").write_text(PING_MANIFEST, encoding="utf-8")
    return tmp_path
