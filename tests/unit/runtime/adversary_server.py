"""`python adversary_server.py [flags]`: the adversary tool table served by `serve.main`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from mcpgen.runtime import stdio_fast_path, stdio_transport
from mcpgen.runtime.runtime import Dispatcher
from mcpgen.runtime.serve import main
from tests.unit.runtime.adversary_tools import INFO, TOOLS

if __name__ == "__main__":
    # Tests of the end of a session wait seconds, not the default half minute.
    if "ADVERSARY_DRAIN_SECONDS" in os.environ:
        seconds = float(os.environ["ADVERSARY_DRAIN_SECONDS"])
        stdio_transport.DRAIN_SECONDS = stdio_fast_path.DRAIN_SECONDS = seconds
    main(INFO, Dispatcher(TOOLS), sys.argv[1:])
