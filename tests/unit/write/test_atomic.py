"""The one single-file writer: whole old or whole new file, permissions as a user expects."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from mcpgen.write.atomic import write_atomic


def test_a_new_file_gets_the_umask_mode_not_mkstemps_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.json", "{}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644


def test_an_existing_file_keeps_its_mode_and_gets_the_exact_bytes(tmp_path: Path) -> None:
    target = tmp_path / "config.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    write_atomic(target, "new\r\nline")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_bytes() == b"new\r\nline"
    assert [p.name for p in tmp_path.iterdir()] == ["config.json"]  # no temp file left
