# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The SDK-compatibility contract of the fast paths: the `mcp` releases and protocol versions
they were proven with, and whether they are on here (and if not, why).

Four parts of the runtime answer requests beside the SDK, for speed: the opening
(`stdio.opening`: `initialize`, `tools/list` and `ping` before the SDK is loaded), the stdio
and stateless HTTP fast paths (`stdio.fast_path`, `http.fast_path`), and the stdio byte pump
(`stdio.transport`) that hands them their requests. Each answers byte for byte what the SDK's
own transports answer: the differential tests run the SDK's `stdio_server` and Streamable
HTTP app beside them over one corpus, at every protocol version the SDK knows. That proof
holds for the releases in `VERIFIED_SDK` speaking the versions in `VERIFIED_PROTOCOLS`; under
any other release the opening and the fast paths are off, the SDK answers everything, and the
server says why in one log line at start (`fast_paths`).

Standard library only, and the SDK is not imported: the opening consults this module first.
The protocol versions the installed SDK speaks are read from its version registry
(`mcp_types/version.py`, which `mcp.types.version` mirrors) on its own.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

logger = logging.getLogger(__name__)

SWITCH_ENV = "MCP_SERVER_FAST_PATHS"  # "0": the SDK answers every request


@dataclass(frozen=True)
class Protocols:
    """Protocol versions, as the SDK's registry groups them (oldest first)."""

    handshake: tuple[str, ...]  # reached through `initialize`
    modern: tuple[str, ...]  # the stateless per-request envelope

    @property
    def latest_handshake(self) -> str:
        """What `initialize` negotiates when the client asks for a version not in `handshake`."""
        return self.handshake[-1]


@dataclass(frozen=True)
class Releases:
    """`mcp` releases from `lowest` up to, not including, `below`."""

    lowest: tuple[int, ...]
    below: tuple[int, ...]

    def __contains__(self, version: object) -> bool:
        numbers = release_numbers(version) if isinstance(version, str) else None
        return numbers is not None and self.lowest <= numbers < self.below

    def __str__(self) -> str:
        return f">={_dotted(self.lowest)},<{_dotted(self.below)}"


VERIFIED_SDK = Releases(lowest=(2, 3), below=(2, 4))
VERIFIED_PROTOCOLS = Protocols(
    handshake=("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"),
    modern=("2026-07-28",),
)


def release_numbers(version: str) -> tuple[int, ...] | None:
    """`2.3.1` → (2, 3, 1); a pre-release counts as its release (`2.4.0rc1` → (2, 4, 0))."""
    found = re.match(r"(\d+(?:\.\d+)*)", version)
    return tuple(int(part) for part in found.group(1).split(".")) if found else None


def _dotted(numbers: tuple[int, ...]) -> str:
    return ".".join(map(str, numbers))


@dataclass(frozen=True)
class Verdict:
    """Whether the fast paths are on; `off` says why not, in words for a log line."""

    off: str | None = None

    @property
    def on(self) -> bool:
        """True when nothing keeps them off."""
        return self.off is None


def fast_paths(*, opening: bool = False, environ: Mapping[str, str] | None = None) -> Verdict:
    """Whether the fast paths may answer here (`opening`: the opening too, which needs more of
    the platform). The first time a reason to be off is found, it is logged, once."""
    verdict = _verdict(opening, os.environ if environ is None else environ)
    if verdict.off is not None and verdict.off not in _announced:
        _announced.add(verdict.off)
        what = "the opening answers and fast paths" if opening else "the fast paths"
        logger.warning("%s are off, the SDK answers every request: %s", what, verdict.off)
    return verdict


_announced: set[str] = set()


def _verdict(opening: bool, environ: Mapping[str, str]) -> Verdict:
    if environ.get(SWITCH_ENV, "") == "0":
        return Verdict(f"{SWITCH_ENV}=0")
    if opening and os.name != "posix":
        return Verdict("the opening needs to wait on a pipe and a thread at once (POSIX only)")
    version = installed_sdk()
    if version is None:
        return Verdict("the installed mcp release cannot be read")
    if version not in VERIFIED_SDK:
        return Verdict(f"mcp {version} is not a release they were proven with ({VERIFIED_SDK})")
    protocols = sdk_protocols()
    if protocols != VERIFIED_PROTOCOLS:
        return Verdict(
            f"mcp {version} speaks {protocols}, they were proven at {VERIFIED_PROTOCOLS}"
        )
    return Verdict()


@functools.cache
def installed_sdk() -> str | None:
    """The installed `mcp` release, read without importing it: the `.dist-info` beside the
    package, else the installed distributions' metadata (None: neither says)."""
    try:
        spec = importlib.util.find_spec("mcp")
    except (ImportError, ValueError):
        return None
    for location in (spec and spec.submodule_search_locations) or ():
        site = os.path.dirname(os.path.abspath(location))
        try:
            found = [n for n in os.listdir(site) if re.fullmatch(r"mcp-[^-]+\.dist-info", n)]
        except OSError:
            continue
        if len(found) == 1:
            return found[0][len("mcp-") : -len(".dist-info")]
    try:
        from importlib import metadata  # noqa: PLC0415  (slower: only when the listing fails)

        return metadata.version("mcp")
    except Exception:  # no metadata at all: run from a source tree
        return None


@functools.cache
def sdk_protocols() -> Protocols | None:
    """The protocol versions the installed SDK speaks, from its version registry (None: it
    has none this module can read)."""
    registry: Any = _version_registry()  # None has neither name either
    try:
        handshake = tuple(map(str, registry.HANDSHAKE_PROTOCOL_VERSIONS))
        modern = tuple(map(str, registry.MODERN_PROTOCOL_VERSIONS))
    except (AttributeError, TypeError):  # no registry, or not the one this module reads
        return None
    return Protocols(handshake, modern) if handshake else None


def _version_registry() -> ModuleType | None:
    """`mcp_types.version`: the SDK's own if it is imported, else its file run on its own
    (it needs only `typing`), so the SDK's package is not imported."""
    loaded = sys.modules.get("mcp_types.version")
    if loaded is not None:
        return loaded
    try:
        package = importlib.util.find_spec("mcp_types")
        paths = (package and package.submodule_search_locations) or ()
        files = [os.path.join(p, "version.py") for p in paths]
        found = [f for f in files if os.path.isfile(f)]
        spec = importlib.util.spec_from_file_location("_mcp_protocol_versions", found[0])
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:  # no registry, or one that cannot run on its own: nothing read
        return None
    return module
