"""Handler of the `static-binary` resource: A static binary resource (image) for testing

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

import base64

PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"  # a 1x1 PNG


def static_binary() -> bytes:
    """The image's bytes: sent as a base64 blob."""
    return base64.b64decode(PIXEL)
