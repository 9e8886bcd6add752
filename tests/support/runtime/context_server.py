"""`python context_server.py [flags]`: the context tool table served by `serve.main`."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from mcpgen.runtime.core.server_info import ServerInfo
from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import main
from tests.support.runtime.context_tools import TOOLS

INFO = ServerInfo(name="ctx", version="0.1.0", script="ctx-server", description="Context.")

if __name__ == "__main__":
    main(INFO, Dispatcher(TOOLS), sys.argv[1:])
