"""Install command lines and deeplinks, quoted for the shell of the target OS."""

from __future__ import annotations

import base64
import json
import shlex
import subprocess
from typing import Any
from urllib.parse import quote

from mcpgen.hosts.launch import OsName


def compact_json(data: Any) -> str:
    """What `JSON.stringify` gives: no spaces, so links and command lines stay short."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def shell_line(argv: list[str], os_name: OsName) -> str:
    """A copy-pasteable command line: POSIX quoting, or cmd.exe quoting on Windows."""
    if os_name == "windows":
        return subprocess.list2cmdline(argv)
    return shlex.join(argv)


def base64_config(entry: Any) -> str:
    """Base64 of the compact JSON entry, URL-encoded (`=` → `%3D`) for a query string."""
    raw = base64.b64encode(compact_json(entry).encode("utf-8")).decode("ascii")
    return quote(raw, safe="")
