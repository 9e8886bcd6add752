"""`python tiny_server.py`: the tiny tool table served on stdio by the runtime's `serve.main`."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from mcpgen.runtime.dispatch.dispatcher import Dispatcher
from mcpgen.runtime.entry.serve import main
from tests.support.runtime.tiny_tools import INFO, TOOLS

if __name__ == "__main__":
    main(INFO, Dispatcher(TOOLS), sys.argv[1:])
