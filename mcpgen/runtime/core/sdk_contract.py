"""The SDK release the runtime's own answers were proven with, and the protocol versions there.

The opening handshake, the stdio and HTTP fast paths answer some requests themselves, byte
for byte as the SDK would; they do so only under a `VERIFIED_SDK` release. Read from here
everywhere, never restated.
"""

from __future__ import annotations

import os

# The SDK releases whose answers the runtime reproduces, and what it negotiates there
# (`mcp.types.version`: HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION).
VERIFIED_SDK = ("2.3.",)
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_HANDSHAKE = "2025-11-25"


def sdk_verified() -> bool:
    """Whether the installed `mcp` is a `VERIFIED_SDK` release, read without importing it:
    its `.dist-info` beside the package, else the installed distributions' metadata."""
    try:
        import importlib.util  # noqa: PLC0415

        spec = importlib.util.find_spec("mcp")
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.submodule_search_locations:
        return False
    for location in spec.submodule_search_locations:
        site = os.path.dirname(os.path.abspath(location))
        try:
            names = os.listdir(site)
        except OSError:
            continue
        found = [n for n in names if n.startswith("mcp-") and n.endswith(".dist-info")]
        if len(found) == 1:
            return found[0][len("mcp-") :].startswith(VERIFIED_SDK)
    try:
        from importlib import metadata  # noqa: PLC0415

        return metadata.version("mcp").startswith(VERIFIED_SDK)
    except Exception:  # no metadata at all: run from a source tree
        return False
