"""The SDK-compatibility contract (`core.sdk_contract`) states the installed SDK truly.

Under the pinned SDK these hold by construction; `.ci/sdk-drift` runs them under the newest
`mcp` the registry serves, where a failure names what drifted and what to do.
"""

from __future__ import annotations

from mcp.types import version as sdk_version

from mcpgen.runtime.core import sdk_contract
from mcpgen.runtime.core.sdk_contract import VERIFIED_PROTOCOLS, VERIFIED_SDK, Protocols

CONTRACT = "mcpgen/runtime/core/sdk_contract.py"
PROVE = "pytest --full tests/differential/test_fast_paths_vs_sdk.py"


def test_the_installed_sdk_is_a_verified_release() -> None:
    installed = sdk_contract.installed_sdk()
    assert installed in VERIFIED_SDK, (
        f"SDK drift: mcp {installed} is outside VERIFIED_SDK ({VERIFIED_SDK}) in {CONTRACT}, "
        f"so every server's fast paths are off under it. Prove them there ({PROVE}, with "
        f"mcp {installed} installed), then widen VERIFIED_SDK."
    )


def test_the_sdk_speaks_the_verified_protocol_versions() -> None:
    speaks = Protocols(
        tuple(sdk_version.HANDSHAKE_PROTOCOL_VERSIONS), tuple(sdk_version.MODERN_PROTOCOL_VERSIONS)
    )
    assert speaks == VERIFIED_PROTOCOLS, (
        f"SDK drift: mcp {sdk_contract.installed_sdk()} speaks {speaks}; VERIFIED_PROTOCOLS in "
        f"{CONTRACT} says {VERIFIED_PROTOCOLS}. Prove the fast paths at the new versions "
        f"({PROVE}), then update VERIFIED_PROTOCOLS."
    )
    assert speaks.latest_handshake == sdk_version.LATEST_HANDSHAKE_VERSION
