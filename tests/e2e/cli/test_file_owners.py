"""A file mcpgen rewrites keeps its mode and owner, also when an administrator runs mcpgen.

Real `python -m mcpgen` processes on real files; the owner part needs root (to hand the file
to another user first) and is skipped elsewhere.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

MANIFEST = "name: demo\nversion: 0.1.0\ntools:\n  - name: ping\n    input_schema: {type: object}\n"
OTHER_USER = 4321


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_host_config_installed_into_keeps_its_mode_and_owner(tmp_path: Path) -> None:
    (tmp_path / "mcpgen.yaml").write_text(MANIFEST, encoding="utf-8")
    config = tmp_path / "cline_mcp_settings.json"
    config.write_text(json.dumps({"mcpServers": {}}), encoding="utf-8")
    config.chmod(0o600)
    os.chown(config, OTHER_USER, OTHER_USER)
    install = ["config", "cline", "--install", "--config-path", str(config), "--yes"]
    done = subprocess.run(
        [sys.executable, "-m", "mcpgen", *install],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "demo" in json.loads(config.read_text(encoding="utf-8"))["mcpServers"]
    info = config.stat()
    assert (info.st_uid, info.st_gid) == (OTHER_USER, OTHER_USER)
    assert stat.S_IMODE(info.st_mode) == 0o600
