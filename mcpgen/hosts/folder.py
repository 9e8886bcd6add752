"""`mcpgen hosts` (and `config --all`): every host's snippet into the project's `hosts/`."""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts.base import DEFAULT_URL
from mcpgen.hosts.launch import MachineFacts
from mcpgen.hosts.render import render_host_files
from mcpgen.hosts.tool_selection import ToolSelection
from mcpgen.manifest.model import Manifest
from mcpgen.write import transaction


def write_hosts_folder(
    manifest: Manifest,
    root: Path,
    facts: MachineFacts,
    *,
    launcher: str | None = None,
    url: str = DEFAULT_URL,
    bearer_env: str | None = None,
    selection: ToolSelection | None = None,
) -> list[Path]:
    """Write `root/hosts/` (one file per host and transport, and a README), all or nothing;
    the paths written."""
    files = render_host_files(
        manifest,
        root,
        facts,
        launcher=launcher,
        url=url,
        bearer_env=bearer_env,
        selection=selection,
    )
    steps = [transaction.Step("write", f.path, content=f.content.encode("utf-8")) for f in files]
    transaction.commit(root, steps)
    return [root / f.path for f in files]
