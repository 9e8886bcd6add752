"""`mcpgen --help` and the command modules load no heavy library: they print help, nothing more.

Run in a fresh interpreter so that what other tests imported does not count.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("jsonschema", "ruamel", "referencing", "datamodel_code_generator", "mcp", "copier")


def test_registering_every_command_imports_no_heavy_library() -> None:
    probe = (
        "import json, sys\n"
        "from mcpgen.cli import command_line\n"
        "command_line()\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = json.loads(done.stdout)
    heavy = sorted({m.split(".")[0] for m in loaded} & set(HEAVY))
    assert heavy == []
    # The host modules (sixteen hosts, their formats) load when a host command runs.
    assert [m for m in loaded if m.startswith("mcpgen.hosts.")] == []
