"""The reference of `openapi.py`: FastMCP's `FastMCP.from_openapi` serving the same operations
over stdio as its documentation shows (its default: every route a tool), one httpx2 client.

    python benchmarks/openapi_fastmcp.py SPEC.json BASE_URL NAMES.json

SPEC.json is the document pruned to the benchmark's operations (and the components they
reach), so the reference reads no more than it serves; NAMES.json maps operationId to the tool
name the generated server uses, so both publish the same names. Runs in its own venv
(`benchmarks/.work/fastmcp-venv`): fastmcp is no dependency of mcpgen's.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx2
from fastmcp import FastMCP


def main() -> None:
    spec_file, base_url, names_file = sys.argv[1:4]
    spec = json.loads(Path(spec_file).read_text(encoding="utf-8"))
    names = json.loads(Path(names_file).read_text(encoding="utf-8"))
    client = httpx2.AsyncClient(base_url=base_url, timeout=30.0)
    server = FastMCP.from_openapi(
        openapi_spec=spec,
        client=client,
        name="github",
        mcp_names=names,
    )
    server.run(show_banner=False)


if __name__ == "__main__":
    main()
