"""Tool tables and server scripts the runtime tests start, and wire helpers that talk to them."""

from pathlib import Path

SERVERS = Path(__file__).parent  # the `*_server.py` scripts, run as `python SERVERS / name`
