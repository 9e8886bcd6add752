"""`mcpgen config --all`: write every host's snippet into the project's `hosts/` folder."""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts.base import DEFAULT_URL
from mcpgen.hosts.launch import MachineFacts
from mcpgen.hosts.render import render_host_files
from mcpgen.manifest.model import Manifest
from mcpgen.write.atomic import write_atomic


def write_hosts_folder(
    manifest: Manifest,
    root: Path,
    facts: MachineFacts,
    *,
    launcher: str | None = None,
    url: str = DEFAULT_URL,
    bearer_env: str | None = None,
) -> list[Path]:
    """Write `root/hosts/` (one file per host and transport, and a README); the paths written.

    Files are replaced one by one, atomically: the folder is machine-specific output that
    nothing reads as a whole, so a half-refreshed folder still holds only valid snippets.
    """
    files = render_host_files(
        manifest, root, facts, launcher=launcher, url=url, bearer_env=bearer_env
    )
    written = []
    for planned in files:
        path = root / planned.path
        write_atomic(path, planned.content)
        written.append(path)
    return written
