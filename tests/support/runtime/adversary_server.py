"""`python adversary_server.py [flags]`: the adversary tool table, started as a generated
server starts (`entry.console.main`): `ADVERSARY_WARM_UP=SECONDS` makes loading the server take that
long, so the session opens before the SDK takes it over; `ADVERSARY_LOAD_FAILS=1` makes it
fail."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry import console
from mcpgen.runtime.stdio import fast_path as stdio_fast_path
from mcpgen.runtime.stdio import transport as stdio_transport
from tests.support.runtime.adversary_tools import INFO, TOOLS

if __name__ == "__main__":
    # Tests of the end of a session wait seconds, not the default half minute.
    if "ADVERSARY_DRAIN_SECONDS" in os.environ:
        seconds = float(os.environ["ADVERSARY_DRAIN_SECONDS"])
        stdio_transport.DRAIN_SECONDS = stdio_fast_path.DRAIN_SECONDS = seconds

    def load() -> tuple[ServerInfo, Dispatcher]:
        time.sleep(float(os.environ.get("ADVERSARY_WARM_UP", "0")))
        if os.environ.get("ADVERSARY_LOAD_FAILS"):
            raise ImportError("No module named 'mcp.server'")
        return INFO, Dispatcher(TOOLS)

    console.main(INFO, TOOLS, load, sys.argv[1:])
