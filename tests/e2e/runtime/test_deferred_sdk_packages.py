"""`mcp` and `mcp.server` put in place by `core.sdk_packages`: their submodules import as
usual without their `__init__`, and any name their `__init__` defines is there when asked,
the same object a plain `import mcp` gives. Each case runs in a fresh interpreter, since the
deferral only applies to packages not imported yet."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PRELUDE = """
import sys
from mcpgen.runtime.core.sdk_packages import defer_sdk_packages
assert defer_sdk_packages() == ("mcp", "mcp.server"), sorted(m for m in sys.modules if "mcp." in m)
"""

CASES = {
    "submodules alone load no client": """
        import mcp.server.lowlevel.server, mcp.server.stdio, mcp.types
        assert "mcp.client" not in sys.modules and "mcp.server.mcpserver" not in sys.modules
        import mcp
        assert mcp.types.Tool.__name__ == "Tool"  # a submodule: no __init__ needed
        assert "mcp.client" not in sys.modules
    """,
    "from mcp import a name of its __init__": """
        import mcp.server.lowlevel.server
        from mcp import Client, ClientSession, stdio_server
        from mcp.client.client import Client as Real
        assert Client is Real and "mcp.client" in sys.modules
        assert "Client" in sys.modules["mcp"].__all__
    """,
    "attribute access on the package": """
        import mcp
        assert mcp.ClientSession.__name__ == "ClientSession"
        assert callable(mcp.stdio_server)
    """,
    "from mcp.server import MCPServer": """
        import mcp.server.lowlevel.server
        from mcp.server import MCPServer, Server
        from mcp.server.lowlevel.server import Server as LowLevel
        assert Server is LowLevel and MCPServer.__name__ == "MCPServer"
    """,
    "mcp.server first, then mcp": """
        from mcp.server import MCPServer
        import mcp
        assert mcp.server.MCPServer is MCPServer and mcp.Client.__name__ == "Client"
    """,
    "a missing name is an AttributeError, and dunder probes do not load": """
        import mcp
        assert not hasattr(mcp, "__wrapped__") and "mcp.client" not in sys.modules
        try:
            mcp.no_such_name
        except AttributeError as error:
            assert "no_such_name" in str(error)
        else:
            raise AssertionError("no AttributeError")
        assert not hasattr(mcp, "no_such_name")  # asked again: still not there, no error
    """,
    "dir() lists what a plain import lists": """
        import json, subprocess
        import mcp.server.lowlevel.server
        import mcp
        names = sorted(dir(mcp))
        plain = "import mcp, json; print(json.dumps(sorted(dir(mcp))))"
        done = subprocess.run([sys.executable, "-c", plain], capture_output=True, check=True)
        assert names == json.loads(done.stdout), names
    """,
}


@pytest.mark.parametrize("body", CASES.values(), ids=CASES.keys())
def test_deferred_packages_behave_as_the_sdk_defines_them(body: str) -> None:
    code = PRELUDE + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr


def test_packages_imported_already_are_left_alone() -> None:
    code = "import mcp\nfrom mcpgen.runtime.core.sdk_packages import defer_sdk_packages\n"
    code += "import mcp.server\nassert defer_sdk_packages() == ()\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
